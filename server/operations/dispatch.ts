// The last layer of the API: the handler of the operation the request was matched to (request
// context), called with the request as it takes it (typed from the spec), and its result sent as
// the response. One layer for every operation, dispatching from the match the request already has.
import type { Request, RequestHandler } from 'express';
import type { Operation, OperationMatch } from '../http/operation.js';
import { requestContext } from '../http/request-context.js';
import { JsonText } from './json-text.js';
import type { OperationDeps } from './types.js';

interface HandlerCall {
  path: unknown;
  query: unknown;
  headers: Record<string, string> | undefined;
  body: unknown;
  caller: unknown;
  trace: unknown;
}
type UntypedHandler = (
  request: HandlerCall,
  deps: OperationDeps,
) => Promise<{ status: number; body?: unknown; headers?: Record<string, string> }>;

/**
 * `validateResponses`: the validator checks what res.json sends, so a body made as JSON text is
 * parsed and given to it there; in production that text is sent as it is.
 */
export function dispatchOperations(
  operations: readonly Operation[],
  deps: OperationDeps,
  validateResponses: boolean,
): RequestHandler {
  // Keyed by the bound operation: the match holds the same object (the operation match is given these).
  const handlers = new Map(operations.map((bound) => [bound, bound.handler as unknown as UntypedHandler]));
  return async (req, res, next) => {
    const { match, caller, trace } = requestContext(req);
    const handler = match && handlers.get(match.operation as Operation);
    // No operation of the spec at this path and method: on to the 404.
    if (!match || !handler) return next();
    const result = await handler(
      {
        path: match.pathParameters,
        query: req.query,
        headers: headersOf(match, req),
        body: req.body,
        caller,
        trace: trace?.calls,
      },
      deps,
    );
    res.setHeader('Cache-Control', match.operation.cacheControl);
    if (result.headers) res.set(result.headers);
    res.status(result.status);
    // Not Modified: no body (RFC 9110 §15.4.5).
    if (result.status === 304) return void res.end();
    const { body } = result;
    if (!(body instanceof JsonText)) res.json(body);
    else if (validateResponses) res.json(JSON.parse(body.text));
    else res.type('application/json').send(body.text);
  };
}

/** The operation's declared header parameters that the request sends, under their names in the spec. */
function headersOf({ operation }: OperationMatch, req: Request): Record<string, string> | undefined {
  if (operation.headerParameters.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const name of operation.headerParameters) {
    const value = req.get(name);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}
