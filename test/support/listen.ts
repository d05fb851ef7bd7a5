// An app served on a free loopback port, for the tests that build an app around one piece of the
// server. close() ends kept-alive connections too, so that no test waits on them.
import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  baseUrl: string;
  server: Server;
  close(): Promise<void>;
}

export async function listenOnLoopback(app: RequestListener): Promise<Listening> {
  const server = createServer(app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
