// listPresetVersions: GET /presets/{slug}/versions
import { Router, type Request, type Response } from 'express';
import type { components, operations } from '../../generated/api.js';
import { ApiError } from '../errors.js';
import type { RouteDeps } from './deps.js';

type ListPresetVersions = operations['listPresetVersions'];
type ListPresetVersionsResponse = ListPresetVersions['responses'][200]['content']['application/json'];
type PresetConfig = components['schemas']['PresetConfig'];

const DEFAULT_LIMIT = 50;

export function presetsRouter({ store }: RouteDeps): Router {
  const router = Router();

  router.get(
    '/presets/:slug/versions',
    async (req: Request<ListPresetVersions['parameters']['path']>, res: Response<ListPresetVersionsResponse>) => {
      // The validator has checked and coerced the query against the spec; null and absent mean the defaults.
      const query = req.query as ListPresetVersions['parameters']['query'];
      const offset = query?.offset ?? 0;
      const limit = query?.limit ?? DEFAULT_LIMIT;
      const preset = await store.presets.findBySlug(res.locals.caller.workspaceId, req.params.slug);
      if (!preset) throw new ApiError(404, 'No preset with this slug in your workspace.');
      const rows = await store.presets.pageOfVersions(preset.id, offset, limit);
      res.json({
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
      });
    },
  );

  return router;
}
