// Before the server takes traffic: one request per operation of the spec, through the real app on
// a private loopback port, so that the validator has loaded the spec and compiled its request
// validators. Requests carry no key: they skip the caller's admission, take every check, and are
// answered 204 before the handler. They are not traffic: the request log leaves them out.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express, RequestHandler } from 'express';
import { type OpenApiDocument, operationPath, specOperations } from '../spec.js';
import { isWarmUpRequest, receivedForWarmUp } from './request-context.js';

function exampleRequests(spec: OpenApiDocument): { method: string; path: string; body?: string }[] {
  return specOperations(spec).map(({ method, operation, parameters }) => {
    // operationPath fills only the path's {names}: the other parameters given go unused.
    const path = operationPath(
      spec,
      operation.operationId,
      Object.fromEntries(parameters.map((p) => [p.name, String(p.example ?? p.name)])),
    );
    const examples = operation.requestBody?.content['application/json'] as
      | { examples?: Record<string, { value: unknown }> }
      | undefined;
    const body = examples?.examples ? JSON.stringify(Object.values(examples.examples)[0]?.value ?? {}) : undefined;
    return { method: method.toUpperCase(), path, ...(body !== undefined && { body }) };
  });
}

/** Runs `handler` for every request but the warm-up's, which have no key to admit. */
export function exceptWarmUp(handler: RequestHandler): RequestHandler {
  return (req, res, next) => (isWarmUpRequest(req) ? next() : handler(req, res, next));
}

/** After the checks: a warm-up request has done its work, and no handler runs for it. */
export const endWarmUpRequest: RequestHandler = (req, res, next) => {
  if (isWarmUpRequest(req)) res.status(204).end();
  else next();
};

export async function warmUp(app: Express, spec: OpenApiDocument): Promise<void> {
  const server = createServer((req, res) => {
    receivedForWarmUp(req);
    app(req, res);
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    for (const request of exampleRequests(spec)) {
      const response = await fetch(`http://127.0.0.1:${port}${request.path}`, {
        method: request.method,
        ...(request.body !== undefined && { body: request.body, headers: { 'content-type': 'application/json' } }),
      });
      await response.arrayBuffer();
    }
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
