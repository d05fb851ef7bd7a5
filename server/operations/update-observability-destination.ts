// updateObservabilityDestination: a partial update of a destination of the caller's workspace,
// conditional on If-Match when given.
import { configRulesOf } from '../domain/destination-config-rules.js';
import type { StoredDestination } from '../domain/destination-update.js';
import { toApiDestination } from '../domain/destination-view.js';
import { destinationEtag } from '../domain/etag.js';
import { HttpError } from '../http/errors.js';
import type { Handler } from './types.js';

export const updateObservabilityDestination: Handler<'updateObservabilityDestination'> = async (
  { path, headers, body, caller, trace },
  { store, clock, destinationTypes },
) => {
  const rulesOf = (type: StoredDestination['type']) => configRulesOf(destinationTypes, type);
  const updated = await store.destinations.update(
    caller.workspaceId,
    path.id,
    clock(),
    { ifMatch: headers?.['If-Match'], changes: body },
    rulesOf,
    trace,
  );
  if (!updated) throw new HttpError(404, 'No observability destination with this id in your workspace.');
  const { outcome, destination } = updated;
  const etag = destinationEtag(destination.revision);
  if (outcome === 'stale') {
    throw new HttpError(
      412,
      'The destination has changed since it was read (If-Match does not match its ETag).',
      null,
      { ETag: etag },
    );
  }
  return {
    status: 200,
    body: { data: toApiDestination(destination, rulesOf(destination.type)) },
    headers: { ETag: etag },
  };
};
