// updateObservabilityDestination: a partial update of a destination of the caller's workspace,
// conditional on If-Match when given.
import type { components } from '../../generated/api.js';
import { applyDestinationPatch } from '../domain/destination-patch.js';
import type { DestinationType, DestinationTypeRules } from '../domain/destination-types.js';
import { destinationEtag, ifMatchSatisfied } from '../domain/etag.js';
import { maskConfig } from '../domain/masking.js';
import { ApiError } from '../errors.js';
import type { StoredDestination } from '../store/destinations.js';
import type { Handler } from './types.js';

type Destination = components['schemas']['ObservabilityDestination'];

function rulesOf(destinationTypes: ReadonlyMap<DestinationType, DestinationTypeRules>, destination: StoredDestination): DestinationTypeRules {
  const rules = destinationTypes.get(destination.type);
  if (!rules) throw new Error(`no config rules for destination type ${destination.type}`);
  return rules;
}

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
    config: maskConfig(state.config, rules.secretKeys) as Destination['config'],
    created_at: destination.created_at,
    updated_at: destination.updated_at,
  };
}

export const updateObservabilityDestination: Handler<'updateObservabilityDestination'> = async (
  { path, headers, body, caller },
  { store, clock, destinationTypes },
) => {
  const ifMatch = headers?.['If-Match'];
  const outcome = await store.destinations.update(caller.workspaceId, path.id, clock(), (current) => {
    if (ifMatch !== undefined && !ifMatchSatisfied(ifMatch, destinationEtag(current.revision))) return { result: 'stale' as const };
    const { next, changed } = applyDestinationPatch(current.state, body, rulesOf(destinationTypes, current));
    return changed ? { result: 'applied' as const, next } : { result: 'applied' as const };
  });
  if (!outcome) throw new ApiError(404, 'No observability destination with this id in your workspace.');
  const etag = destinationEtag(outcome.destination.revision);
  if (outcome.result === 'stale') {
    throw new ApiError(412, 'The destination has changed since it was read (If-Match does not match its ETag).', null, { ETag: etag });
  }
  return { status: 200, body: { data: toApiDestination(outcome.destination, rulesOf(destinationTypes, outcome.destination)) }, headers: { ETag: etag } };
};
