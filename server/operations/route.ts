// The Express end of an operation: the request as its handler takes it, typed from the spec, and
// the handler's result as the response.
import type { RequestHandler } from 'express';
import { matchedOperation } from '../http/request-shape.js';
import type { BoundOperation } from './bind.js';
import { JsonText } from './json-text.js';
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

/**
 * `validateResponses`: the validator checks what res.json sends, so a body made as JSON text is
 * parsed and given to it there; in production that text is sent as it is.
 */
export function operationRoute(bound: BoundOperation, deps: OperationDeps, validateResponses: boolean): RequestHandler {
  // The table of handlers is checked against `operations` where it is written; here they are alike.
  const handler = bound.handler as unknown as UntypedHandler;
  const { headerParameters } = bound;
  return async (req, res, next) => {
    // Express's routes forgive a trailing slash and the case of letters; the spec's paths do not.
    // Only a request that findOperation matched to this operation, and so admitted, reaches its
    // handler; any other goes on to the 404.
    if (matchedOperation(req)?.operation.operationId !== bound.operationId) return next();
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
      { path: req.params, query: req.query, headers, body: req.body, caller: res.locals.caller },
      deps,
    );
    // Stryker disable next-line ConditionalExpression: equivalent, see mutation/equivalents.md#headers-of-undefined
    if (result.headers) res.set(result.headers);
    res.status(result.status);
    const { body } = result;
    if (!(body instanceof JsonText)) res.json(body);
    else if (validateResponses) res.json(JSON.parse(body.text));
    else res.type('application/json').send(body.text);
  };
}
