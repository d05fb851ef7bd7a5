// updateObservabilityDestination: a partial update of a destination of the caller's workspace,
// conditional on If-Match when given.
import type { components } from '../../generated/api.js';
import { configRulesOf, type DestinationTypeRules } from '../domain/destination-config-rules.js';
import type { StoredDestination } from '../domain/destination-update.js';
import { destinationEtag } from '../domain/etag.js';
import { maskConfig } from '../domain/masking.js';
import { HttpError } from '../http/errors.js';
import type { Handler } from './types.js';

type Destination = components['schemas']['ObservabilityDestination'];

/** The destination as the API shows it: every secret masked. */
function toApiDestination(destination: StoredDestination, rules: DestinationTypeRules): Destination {
  const { state } = destination;
  return {
    id: destination.id,
    workspace_id: destination.workspace_id,
    name: state.name,
    type: destination.type,
    enabled: state.enabled,
    privacy_mode: state.privacy_mode,
    sampling_rate: state.sampling_rate,
    api_key_hashes: state.api_key_hashes,
    filter_rules: state.filter_rules,
    broadcast_generation_cost: state.broadcast_generation_cost,
    broadcast_generation_identity: state.broadcast_generation_identity,
    broadcast_generation_request_context: state.broadcast_generation_request_context,
    regions: state.regions,
    config: maskConfig(state.config, rules.secretKeys) as Destination['config'],
    created_at: destination.created_at,
    updated_at: destination.updated_at,
  };
}

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
