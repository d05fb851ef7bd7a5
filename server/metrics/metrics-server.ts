// The metrics' own HTTP server, on METRICS_PORT: GET /metrics in Prometheus's text format, nothing
// else. Apart from the API's port, so that the metrics are never public where the API is.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

export async function listenForMetrics(registry: Registry, host: string, port: number): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = req.url?.split('?', 1)[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Only /metrics is served here.\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end();
      return;
    }
    registry.metrics().then(
      // Node sends no body in answer to HEAD, and no Content-Length either.
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      () => res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('The metrics could not be read.\n'),
    );
  });
  server.listen(port, host);
  try {
    await once(server, 'listening');
  } catch (err) {
    // Said as the failure of METRICS_PORT, not of PORT (server/failure.ts).
    throw Object.assign(err as Error, { setting: 'METRICS_PORT' });
  }
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
