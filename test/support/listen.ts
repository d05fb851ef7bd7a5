// An app served on a free loopback port, for the tests that build an app around one piece of the
// server: by a bare node:http server, or by the server's own (server/http/http-server.ts). close()
// ends kept-alive connections too, so that no test waits on them.
import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { type ConnectionLimits, listen } from '../../server/http/http-server.js';

export interface Listening {
  baseUrl: string;
  server: Server;
  close(): Promise<void>;
}

export async function listenOnLoopback(app: RequestListener): Promise<Listening> {
  const server = createServer(app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return listening(server);
}

/** A server listening on loopback, as the tests use it; closing it drops the connections still open. */
function listening(server: Server): Listening {
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The app behind the server's own HTTP server, with its default timeouts. */
export async function listenWithHttpServer(app: Express, limits: Partial<ConnectionLimits> = {}): Promise<Listening> {
  const { server } = await listen(app, '127.0.0.1', 0, {
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
    ...limits,
  });
  return listening(server);
}
