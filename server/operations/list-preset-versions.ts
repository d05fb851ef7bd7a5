// listPresetVersions: one page of the versions of a preset of the caller's workspace.
import type { components } from '../../generated/api.js';
import { ApiError } from '../errors.js';
import { filledByValidator } from './filled-by-validator.js';
import type { Handler } from './types.js';

type PresetConfig = components['schemas']['PresetConfig'];

export const listPresetVersions: Handler<'listPresetVersions'> = async ({ path, query, caller }, { store }) => {
  // An empty offset (`offset=`) is null, which the spec says counts as 0.
  const offset = query?.offset ?? 0;
  const limit = filledByValidator(query?.limit, 'limit');
  const preset = await store.presets.findBySlug(caller.workspaceId, path.slug);
  if (!preset) throw new ApiError(404, 'No preset with this slug in your workspace.');
  const rows = await store.presets.pageOfVersions(preset.id, offset, limit);
  return {
    status: 200,
    body: {
      data: rows.map((row) => ({
        id: row.id,
        preset_id: row.preset_id,
        version: row.version,
        config: JSON.parse(row.config) as PresetConfig,
        system_prompt: row.system_prompt,
        creator_id: row.creator_id,
        created_at: row.created_at,
        updated_at: row.updated_at,
      })),
      total_count: preset.version_count,
    },
  };
};
