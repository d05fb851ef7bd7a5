// Before the server takes traffic: one request per operation of the spec, through the real app on
// a private loopback port, so that the validator has loaded the spec and compiled its request and
// response validators. Requests carry no key: they pass validation, then stop at authentication.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { JsonObject, OpenApiDocument } from '../spec.js';

function exampleRequests(spec: OpenApiDocument): { method: string; path: string; body?: string }[] {
  const prefix = spec.servers[0]?.url ?? '';
  return Object.entries(spec.paths).flatMap(([template, item]) =>
    Object.entries(item).map(([method, operation]) => {
      const path = template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
        const parameter = operation.parameters?.find((p) => p.in === 'path' && p.name === name) as
          | (JsonObject & { example?: unknown })
          | undefined;
        return encodeURIComponent(String(parameter?.example ?? name));
      });
      const examples = operation.requestBody?.content['application/json'] as
        | { examples?: Record<string, { value: unknown }> }
        | undefined;
      const body = examples?.examples ? JSON.stringify(Object.values(examples.examples)[0]?.value ?? {}) : undefined;
      return { method: method.toUpperCase(), path: `${prefix}${path}`, ...(body !== undefined && { body }) };
    }),
  );
}

export async function warmUp(app: Express, spec: OpenApiDocument): Promise<void> {
  const server = app.listen(0, '127.0.0.1');
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
