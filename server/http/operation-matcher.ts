// Which operation of openapi.yaml a request is for: found once, by method and by the path below one
// of the spec's server URLs, as the spec writes it (no trailing slash, letters in their case), at
// the head of the API's layers (findOperation); every later layer reads it through
// matchedOperation. A HEAD request is for the GET operation of its path (head-requests.ts).
//
// The match is kept in a WeakMap keyed by the request rather than on res.locals: some readers
// hold only the request (the metrics' close listener, the 400's explanation), no other layer can
// overwrite it, and it goes with its request.
import type { Request, RequestHandler } from 'express';
import type { KeyKind } from '../domain/api-keys.js';
import { apiBasePaths, type OpenApiDocument, type SpecOperation } from '../spec.js';
import { answeredAs } from './head-requests.js';

/** A query parameter of type integer, which the spec wants written in digits (request-shape.ts). */
export interface QueryInteger {
  name: string;
  /** Whether the empty value (null) is allowed. */
  nullable: boolean;
}

/** An operation with what the layers of a request read of it, computed once when it is bound (operations/bind.ts). */
export interface RoutedOperation extends SpecOperation {
  operationId: string;
  acceptedKeyKinds: readonly KeyKind[];
  /** Header parameters, under their names in the spec. */
  headerParameters: readonly string[];
  queryIntegers: readonly QueryInteger[];
  /** What answers the request (operations/dispatch.ts); the layers here do not call it. */
  handler: unknown;
}

/** The operation a request is for, and its path parameters, decoded, by the template's names. */
export interface OperationMatch<T extends SpecOperation = RoutedOperation> {
  operation: T;
  /** A value that is not percent-encoded UTF-8 is left out: the validator refuses the request with 400. */
  pathParams: Record<string, string>;
}

function decoded(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** Finds the operation of a method and a full request path (base path included) among `operations`. */
export function operationMatcher<T extends SpecOperation>(
  spec: OpenApiDocument,
  operations: readonly T[],
): (method: string, path: string) => OperationMatch<T> | undefined {
  const basePaths = apiBasePaths(spec);
  const compiled = operations.map((operation) => ({
    operation,
    method: operation.method.toUpperCase(),
    names: [...operation.template.matchAll(/\{([^}]+)\}/g)].map((found) => found[1] ?? ''),
    pattern: new RegExp(
      `^${operation.template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}$`,
    ),
  }));
  const find = (method: string | undefined, below: string) => {
    for (const candidate of compiled) {
      if (candidate.method !== method) continue;
      const values = candidate.pattern.exec(below);
      if (values) return { candidate, values };
    }
    return undefined;
  };
  return (method, path) => {
    for (const base of basePaths) {
      if (!path.startsWith(`${base}/`)) continue;
      const below = path.slice(base.length);
      const found = find(method, below) ?? find(answeredAs(method), below);
      if (!found) continue;
      const pathParams: Record<string, string> = {};
      found.candidate.names.forEach((name, index) => {
        const value = decoded(found.values[index + 1] ?? '');
        if (value !== undefined) pathParams[name] = value;
      });
      return { operation: found.candidate.operation, pathParams };
    }
    return undefined;
  };
}

const matched = new WeakMap<Request, OperationMatch>();

/** The operation of the request and its path parameters, as findOperation found them; none outside the operations. */
export function matchedOperation(req: Request): OperationMatch | undefined {
  return matched.get(req);
}

/** The first layer of the API: finds the request's operation with `match` (operationMatcher), once, for every layer after it. */
export function findOperation(match: (method: string, path: string) => OperationMatch | undefined): RequestHandler {
  return (req, _res, next) => {
    const found = match(req.method, req.originalUrl.split('?', 1)[0] ?? '');
    if (found) matched.set(req, found);
    next();
  };
}

/** Runs `handler` for a request that findOperation matched to an operation; others go straight on. */
export function forOperations(handler: RequestHandler): RequestHandler {
  return (req, res, next) => (matched.has(req) ? handler(req, res, next) : next());
}
