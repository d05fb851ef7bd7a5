// The last layer of the API: the handler of the operation findOperation matched, called with the
// request as the handler takes it (typed from the spec), and its result sent as the response. One
// layer for every operation: no route per operation, no second match.
import type { RequestHandler } from 'express';
import { matchedOperation } from '../http/operation-matcher.js';
import type { OperationDeps } from './types.js';

interface HandlerCall {
  path: unknown;
  query: unknown;
  headers: Record<string, string> | undefined;
  body: unknown;
  caller: unknown;
}
type UntypedHandler = (
  request: HandlerCall,
  deps: OperationDeps,
) => Promise<{ status: number; body: unknown; headers?: Record<string, string> }>;

export function dispatch(deps: OperationDeps): RequestHandler {
  return async (req, res, next) => {
    const found = matchedOperation(req);
    // No operation of the spec at this path and method: on to the 404.
    if (!found) return next();
    const { operation, pathParams } = found;
    // The table of handlers is checked against `operations` where it is written (index.ts), and
    // bindOperations gave each operation its own: here they are alike.
    const handler = operation.handler as UntypedHandler;
    const { headerParameters } = operation;
    const headers =
      headerParameters.length === 0
        ? undefined
        : Object.fromEntries(
            headerParameters.flatMap((name) => {
              const value = req.get(name);
              return value === undefined ? [] : [[name, value]];
            }),
          );
    const result = await handler(
      { path: pathParams, query: req.query, headers, body: req.body, caller: res.locals.caller },
      deps,
    );
    // Stryker disable next-line ConditionalExpression: Express's res.set with one argument sets each own key of it, so res.set(undefined) sets nothing, as skipping the call does
    if (result.headers) res.set(result.headers);
    res.status(result.status).json(result.body);
  };
}
