// Binds each operation of openapi.yaml to its handler by operationId, and reads from the spec what
// the layers before the handler need of it: the key kinds its security requirement accepts, the
// header parameters it declares, and the Cache-Control of its success answer; a request body must be
// application/json, the only media type the server reads. Any mismatch between the spec and the
// handlers is a ContractError naming every operationId concerned, on one line.

import type { KeyKind } from '../domain/api-keys.js';
import {
  ContractError,
  type JsonObject,
  type OpenApiDocument,
  type OpenApiOperation,
  requestBodySchemaPointer,
  resolveRef,
  specOperations,
} from '../spec.js';
import type { AnyHandler, Operation } from '../validation/operation.js';

/**
 * The Cache-Control its success answer documents (the `const` of the header's schema), which the
 * dispatch sends; a 2xx without one is a ContractError: every answer says whether it may be kept.
 */
function successCacheControl(
  spec: OpenApiDocument,
  operation: OpenApiOperation,
  problems: string[],
  where: string,
): string {
  const responses = (operation.responses ?? {}) as Record<string, unknown>;
  const values = Object.entries(responses)
    .filter(([status]) => /^2\d\d$/.test(status))
    .map(([status, response]) => {
      const headers = (resolveRef(spec, response) as { headers?: Record<string, unknown> }).headers ?? {};
      const header = resolveRef(spec, headers['Cache-Control']) as { schema?: { const?: unknown } } | undefined;
      const value = resolveRef(spec, header?.schema) as { const?: unknown } | undefined;
      return [status, value?.const] as const;
    });
  const missing = values.filter(([, value]) => typeof value !== 'string').map(([status]) => status);
  if (missing.length > 0)
    problems.push(`${where}: response ${missing.join(', ')} documents no Cache-Control header with a const value`);
  return String(values.find(([, value]) => typeof value === 'string')?.[1] ?? '');
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

export function bindOperations(spec: OpenApiDocument, handlers: Readonly<Record<string, AnyHandler>>): Operation[] {
  const problems: string[] = [];
  const bound: Operation[] = [];
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
    for (const mediaType of Object.keys(entry.operation.requestBody?.content ?? {}))
      if (mediaType !== 'application/json')
        problems.push(
          `${where}: request body media type ${mediaType} is not application/json, the only one the server reads`,
        );
    const { method, template, parameters, operation: definition } = entry;
    bound.push({
      id: operationId,
      method,
      template,
      parameters,
      body: definition.requestBody?.content['application/json']
        ? { schemaPointer: requestBodySchemaPointer(entry), required: definition.requestBody.required === true }
        : undefined,
      keyKinds: acceptedKeyKinds(spec, definition, problems, where),
      headerParameters: entry.parameters.filter((p) => p.in === 'header').map((p) => p.name),
      cacheControl: successCacheControl(spec, definition, problems, where),
      definition,
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
