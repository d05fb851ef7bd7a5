// The last layer of the API: the handler of the operation the request was matched to (request
// context), called with the request as it takes it (typed from the spec), and its result sent as
// the response. One layer for every operation, dispatching from the operation the request already has.
import type { Request, RequestHandler } from 'express';
import { authenticatedCaller, callTraceOf, matchedOperation, matchedRoute } from '../http/request-context.js';
import type { Operation } from '../validation/operation.js';
import { JsonText } from './json-text.js';
import type { OperationDeps, OperationId, OperationRequest, OperationResult } from './types.js';

/** A handler as the dispatch calls it: each is typed for its own operation where the table is written (index.ts). */
type AnyOperationHandler = (
  request: OperationRequest<OperationId>,
  deps: OperationDeps,
) => Promise<{ [K in OperationId]: OperationResult<K> }[OperationId]>;

/**
 * `validateResponses`: the validator checks what res.json sends, so a body made as JSON text is
 * parsed and given to it there; in production that text is sent as it is.
 */
export function dispatchOperations(deps: OperationDeps, validateResponses: boolean): RequestHandler {
  return async (req, res) => {
    const operation = matchedOperation(req);
    const handler = operation.handler as unknown as AnyOperationHandler;
    const result = await handler(
      {
        path: matchedRoute(req).pathParameters as OperationRequest<OperationId>['path'],
        query: req.query as OperationRequest<OperationId>['query'],
        headers: headersOf(operation, req),
        body: req.body,
        caller: authenticatedCaller(req),
        trace: callTraceOf(req),
      },
      deps,
    );
    res.setHeader('Cache-Control', operation.cacheControl);
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
function headersOf(operation: Operation, req: Request): OperationRequest<OperationId>['headers'] {
  if (operation.headerParameters.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const name of operation.headerParameters) {
    const value = req.get(name);
    if (value !== undefined) headers[name] = value;
  }
  return headers as OperationRequest<OperationId>['headers'];
}
