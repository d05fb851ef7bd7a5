// Binds each operation of openapi.yaml to its handler by operationId, and reads from the spec what
// the layers before the handler need of it: the key kinds its security requirement accepts, the
// header parameters it declares. Any mismatch between the spec and the
// handlers is a ContractError naming every operationId concerned, on one line.

import type { KeyKind } from '../domain/api-keys.js';
import type { OperationFacts } from '../http/request-context.js';
import {
  ContractError,
  type JsonObject,
  type OpenApiDocument,
  type OpenApiOperation,
  specOperations,
} from '../spec.js';
import type { OperationDeps } from './types.js';

/** A handler of some operation; its request type is checked where the table is written (index.ts). */
export type AnyHandler = (request: never, deps: OperationDeps) => Promise<unknown>;

export interface BoundOperation extends OperationFacts {
  handler: AnyHandler;
}

function acceptedKeyKinds(
  spec: OpenApiDocument,
  operation: OpenApiOperation,
  problems: string[],
  where: string,
): KeyKind[] {
  const known = ((spec.components.schemas.KeyKind as JsonObject | undefined)?.enum ?? []) as string[];
  const requirements = operation.security ?? spec.security ?? [];
  const kinds = new Set<KeyKind>();
  for (const requirement of requirements) {
    for (const [scheme, roles] of Object.entries(requirement)) {
      const definition = spec.components.securitySchemes[scheme] as { type?: string; scheme?: string } | undefined;
      if (definition?.type !== 'http' || definition.scheme?.toLowerCase() !== 'bearer') {
        problems.push(`${where}: security scheme ${scheme} is not an http bearer scheme of components.securitySchemes`);
      }
      // Roles within one requirement are all required; a key has one kind, so each kind is an alternative of its own.
      if (roles.length > 1)
        problems.push(
          `${where}: requirement ${scheme}: [${roles.join(', ')}] asks a key to be of several kinds at once; list each kind as a requirement of its own`,
        );
      for (const role of roles) {
        if (known.includes(role)) kinds.add(role as KeyKind);
        else problems.push(`${where}: key kind ${JSON.stringify(role)} is not one of KeyKind (${known.join(', ')})`);
      }
    }
  }
  if (kinds.size === 0 && !problems.some((p) => p.startsWith(where))) {
    problems.push(`${where}: no security requirement names a key kind, e.g. bearerAuth: [${known[0] ?? 'management'}]`);
  }
  return [...kinds];
}

export function bindOperations(
  spec: OpenApiDocument,
  handlers: Readonly<Record<string, AnyHandler>>,
): BoundOperation[] {
  const problems: string[] = [];
  const bound: BoundOperation[] = [];
  const seen = new Set<string>();
  for (const entry of specOperations(spec)) {
    const operationId = entry.operation.operationId;
    const where = `operation ${operationId ?? '(no operationId)'} (${entry.method.toUpperCase()} ${entry.template})`;
    if (typeof operationId !== 'string' || operationId === '') {
      problems.push(`${where} has no operationId`);
      continue;
    }
    if (seen.has(operationId)) problems.push(`${where}: operationId ${operationId} is used twice`);
    seen.add(operationId);
    const handler = Object.hasOwn(handlers, operationId) ? handlers[operationId] : undefined;
    if (!handler) {
      problems.push(`${where} has no handler in server/operations`);
      continue;
    }
    bound.push({
      ...entry,
      operationId,
      acceptedKeyKinds: acceptedKeyKinds(spec, entry.operation, problems, where),
      headerParameters: entry.parameters.filter((p) => p.in === 'header').map((p) => p.name),
      handler,
    });
  }
  for (const operationId of Object.keys(handlers)) {
    if (!seen.has(operationId)) problems.push(`handler ${operationId} has no operation in openapi.yaml`);
  }
  if (problems.length > 0)
    throw new ContractError(`openapi.yaml and server/operations do not match: ${problems.join('; ')}`);
  return bound;
}
