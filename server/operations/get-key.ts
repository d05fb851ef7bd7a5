// getKey: one API key of the caller's workspace, with its usage figures.
import { limitRemaining } from '../domain/limits.js';
import { usageWindows } from '../domain/time.js';
import { ApiError } from '../errors.js';
import type { Handler } from './types.js';

export const getKey: Handler<'getKey'> = async ({ path, caller }, { store, clock }) => {
  const found = await store.keys.findInWorkspaceWithUsage(caller.workspaceId, path.hash, usageWindows(clock()));
  if (!found) throw new ApiError(404, 'No API key with this hash in your workspace.');
  const { key, usage } = found;
  const figures = { usage: key.usage_total, byok_usage: key.byok_usage_total, ...usage };
  const limits = { limit: key.spend_limit, limit_reset: key.limit_reset, include_byok_in_limit: Boolean(key.include_byok_in_limit) };
  return {
    status: 200,
    body: {
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
    },
  };
};
