// The request path's layer "operation match": the operation a request is for, found once, or the
// answer to a request for none.
import type { RequestHandler } from 'express';
import type { OpenApiDocument } from '../spec.js';
import { noOperationError } from './errors.js';
import type { Operation } from './operation.js';
import { operationMatcher, pathMethods } from './operation-matcher.js';
import { requestContext } from './request-context.js';

/**
 * The first layer under the API: the operation (of `operations`, the server's) that a request is
 * for, found once into the request's context. A request for none is answered here, before any
 * key: 404, or 405 with the methods its path takes.
 */
export function matchOperation(spec: OpenApiDocument, operations: readonly Operation[]): RequestHandler {
  const match = operationMatcher(spec, operations);
  const methodsOf = pathMethods(spec, match);
  return (req, _res, next) => {
    const path = req.originalUrl.split('?', 1)[0] ?? '';
    const found = match(req.method, path);
    if (!found) throw noOperationError(methodsOf(path));
    requestContext(req).match = found;
    next();
  };
}
