// getKey: GET /keys/{hash}
import { Router, type Request, type Response } from 'express';
import type { operations } from '../../generated/api.js';
import { requireManagementKey } from '../auth.js';
import { limitRemaining } from '../domain/limits.js';
import { usageWindows } from '../domain/time.js';
import { ApiError } from '../errors.js';
import type { RouteDeps } from './deps.js';

type GetKey = operations['getKey'];
type GetKeyResponse = GetKey['responses'][200]['content']['application/json'];

export function keysRouter({ store, clock }: RouteDeps): Router {
  const router = Router();

  router.get('/keys/:hash', requireManagementKey, async (req: Request<GetKey['parameters']['path']>, res: Response<GetKeyResponse>) => {
    const found = await store.keys.findInWorkspaceWithUsage(res.locals.caller.workspaceId, req.params.hash, usageWindows(clock()));
    if (!found) throw new ApiError(404, 'No API key with this hash in your workspace.');
    const { key, usage } = found;
    const figures = { usage: key.usage_total, byok_usage: key.byok_usage_total, ...usage };
    const limits = { limit: key.spend_limit, limit_reset: key.limit_reset, include_byok_in_limit: Boolean(key.include_byok_in_limit) };
    res.json({
      data: {
        hash: key.hash,
        name: key.name,
        label: key.label,
        disabled: Boolean(key.disabled),
        ...limits,
        limit_remaining: limitRemaining(limits, figures),
        ...figures,
        created_at: key.created_at,
        updated_at: key.updated_at,
        expires_at: key.expires_at,
        creator_user_id: key.creator_user_id,
        workspace_id: key.workspace_id,
      },
    });
  });

  return router;
}
