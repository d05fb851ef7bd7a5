// listPresetVersions: one page of the versions of a preset of the caller's workspace.
import { HttpError } from '../http/errors.js';
import { filledByValidator } from './filled-by-validator.js';
import type { Handler } from './types.js';

export const listPresetVersions: Handler<'listPresetVersions'> = async ({ path, query, caller }, { store }) => {
  // An empty offset (`offset=`) is null, which the spec says counts as 0.
  const offset = query?.offset ?? 0;
  const limit = filledByValidator(query?.limit, 'limit');
  const preset = await store.presets.findBySlug(caller.workspaceId, path.slug);
  if (!preset) throw new HttpError(404, 'No preset with this slug in your workspace.');
  const data = await store.presets.pageOfVersions(preset.id, offset, limit);
  return { status: 200, body: { data, total_count: preset.version_count } };
};
