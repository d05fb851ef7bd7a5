// getKey: one API key of the caller's workspace, with its usage figures.
import { limitRemaining } from '../domain/limits.js';
import { usageWindows } from '../domain/time.js';
import { HttpError } from '../http/errors.js';
import type { Handler } from './types.js';

export const getKey: Handler<'getKey'> = async ({ path, caller, trace }, { store, clock }) => {
  const key = await store.keys.findInWorkspaceWithUsage(caller.workspaceId, path.hash, usageWindows(clock()), trace);
  if (!key) throw new HttpError(404, 'No API key with this hash in your workspace.');
  return { status: 200, body: { data: { ...key, limit_remaining: limitRemaining(key, key) } } };
};
