// The rules of a request that read the stored object it changes, for the check step's 400
// (validation/request-checks.ts): when a request has failed some check already, the fields it
// would fail against what is stored are named in the same answer. A request that passes every
// other check meets these rules where the change is decided (the destination's update).
import type { Request } from 'express';
import { configRulesOf } from '../domain/destination-config-rules.js';
import { configUpdateErrors } from '../domain/destination-update.js';
import type { FieldError } from '../domain/field-errors.js';
import { callTraceOf, matchedRoute, requestContext } from '../http/request-context.js';
import { isObject } from '../spec.js';
import type { Operation } from '../validation/operation.js';
import type { StoredObjectErrors } from '../validation/request-checks.js';
import type { OperationDeps, OperationId } from './types.js';

type StoredObjectRule = (req: Request, workspaceId: string, deps: OperationDeps) => Promise<FieldError[]>;

/** A destination's config keys against its type: a key of another type, a value its type refuses. */
const destinationConfigRule: StoredObjectRule = async (req, workspaceId, deps) => {
  const { id } = matchedRoute(req).pathParameters;
  const config: unknown = (req.body as { config?: unknown } | undefined)?.config;
  if (id === undefined || !isObject(config)) return [];
  const current = await deps.store.destinations.read(workspaceId, id, callTraceOf(req));
  if (!current) return [];
  // The values of the types the schema allows; the others have their error already.
  const update = Object.fromEntries(
    Object.entries(config).flatMap(([key, value]): [string, unknown][] => {
      if (typeof value === 'string') return [[key, value]];
      if (!isObject(value)) return [];
      return [[key, Object.fromEntries(Object.entries(value).filter(([, header]) => typeof header === 'string'))]];
    }),
  ) as Parameters<typeof configUpdateErrors>[1];
  return configUpdateErrors(current, update, configRulesOf(deps.destinationTypes, current.type));
};

const RULES: Partial<Record<OperationId, StoredObjectRule>> = {
  updateObservabilityDestination: destinationConfigRule,
};

export function storedObjectErrors(deps: OperationDeps): StoredObjectErrors {
  return async (operation: Operation, req: Request) => {
    const rule = RULES[operation.id as OperationId];
    const caller = requestContext(req).caller;
    if (!rule || !caller) return [];
    // The 400 is owed whatever the store says: a store that cannot answer now leaves these fields out.
    return rule(req, caller.workspaceId, deps).catch(() => []);
  };
}
