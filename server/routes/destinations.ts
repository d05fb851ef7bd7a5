// updateObservabilityDestination: PATCH /observability/destinations/{id}
import { Router, type Request, type Response } from 'express';
import type { components, operations } from '../../generated/api.js';
import { requireManagementKey } from '../auth.js';
import { applyDestinationPatch } from '../domain/destination-patch.js';
import type { DestinationTypeRules } from '../domain/destination-types.js';
import { destinationEtag, ifMatchSatisfied } from '../domain/etag.js';
import { maskConfig } from '../domain/masking.js';
import { ApiError } from '../errors.js';
import type { StoredDestination } from '../store/destinations.js';
import type { RouteDeps } from './deps.js';

type UpdateDestination = operations['updateObservabilityDestination'];
type UpdateBody = UpdateDestination['requestBody']['content']['application/json'];
type UpdateResponse = UpdateDestination['responses'][200]['content']['application/json'];
type Destination = components['schemas']['ObservabilityDestination'];

function present(destination: StoredDestination, rules: DestinationTypeRules): Destination {
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

export function destinationsRouter({ store, clock, destinationTypes }: RouteDeps): Router {
  const router = Router();

  function rulesOf(destination: StoredDestination): DestinationTypeRules {
    const rules = destinationTypes.get(destination.type);
    if (!rules) throw new Error(`no config rules for destination type ${destination.type}`);
    return rules;
  }

  router.patch(
    '/observability/destinations/:id',
    requireManagementKey,
    async (req: Request<UpdateDestination['parameters']['path'], UpdateResponse, UpdateBody>, res: Response<UpdateResponse>) => {
      const ifMatch = req.get('if-match');
      const outcome = await store.destinations.update(res.locals.caller.workspaceId, req.params.id, clock(), (current) => {
        if (ifMatch !== undefined && !ifMatchSatisfied(ifMatch, destinationEtag(current.revision))) return { result: 'stale' as const };
        const { next, changed } = applyDestinationPatch(current.state, req.body, rulesOf(current));
        return changed ? { result: 'applied' as const, next } : { result: 'applied' as const };
      });
      if (!outcome) throw new ApiError(404, 'No observability destination with this id in your workspace.');
      if (outcome.result === 'stale') {
        throw new ApiError(412, 'The destination has changed since it was read (If-Match does not match its ETag).', null, {
          ETag: destinationEtag(outcome.destination.revision),
        });
      }
      res.set('ETag', destinationEtag(outcome.destination.revision));
      res.json({ data: present(outcome.destination, rulesOf(outcome.destination)) });
    },
  );

  return router;
}
