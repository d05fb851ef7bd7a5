// The HTTP server around the app: timeouts that keep a slow or idle client from holding a
// connection forever, limits on connections (for the process and per client address), one
// answer at a time on a connection, `Expect: 100-continue` left to the app, a request target in
// absolute form taken as its origin form, what Node cannot parse answered in the envelope, and a
// drain that answers every request already received.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { Express } from 'express';
import { answerInTurn } from './answer-in-turn.js';
import { type ConnectionCounts, limitConnectionsPerAddress } from './connection-limit.js';
import { holdContinue } from './request-body.js';
import { toOriginForm } from './request-target.js';
import { answerUnparsableRequests, refusedWithoutHost } from './unparsable-requests.js';

export interface HttpTimeouts {
  /** Time allowed to receive the whole request head. */
  headersTimeoutMs: number;
  /** Time allowed to receive the whole request. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
}

export interface ConnectionLimits {
  /** Connections open at once in the process (server.maxConnections); more are closed as accepted. */
  maxConnections: number;
  /**
   * Connections open at once from one client address; 0 for no limit. Addresses the app's
   * `trust proxy` trusts (the balancer in front) are not limited.
   */
  maxConnectionsPerAddress: number;
}

export interface HttpServer {
  server: Server;
  /** The client addresses with a connection open, as the per-address limit counts them. */
  connections: ConnectionCounts;
  /**
   * Keeps accepting and serving, but every response from now on carries `Connection: close`, and
   * keep-alive connections found idle are closed, once a second: clients reconnect, elsewhere
   * behind a balancer.
   */
  closeKeepAlive(idleGraceMs?: number): void;
  /**
   * Takes the connections already in the listen queue, then stops accepting; answers what arrives
   * on the open ones (with `Connection: close`), closes connections that stay idle past a grace
   * period, and resolves when none is left.
   */
  drain(idleGraceMs?: number): Promise<void>;
}

/** The longest a drain keeps taking queued connections before it closes the listener. */
const ACCEPT_QUEUE_LIMIT_MS = 1000;

export async function listen(
  app: Express,
  host: string,
  port: number,
  options: HttpTimeouts & Partial<ConnectionLimits>,
): Promise<HttpServer> {
  let draining = false;
  const server = createServer({
    // Checked in `serve`, so that the 400 is in the envelope (refusedWithoutHost).
    requireHostHeader: false,
    headersTimeout: options.headersTimeoutMs,
    requestTimeout: options.requestTimeoutMs,
    keepAliveTimeout: options.keepAliveTimeoutMs,
    // Node checks the two timeouts above on this interval; a tighter one enforces them closer.
    connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(options.headersTimeoutMs / 4))),
  });
  if (options.maxConnections !== undefined) server.maxConnections = options.maxConnections;
  // Express's compiled `trust proxy`: whether an address is a proxy whose X-Forwarded-For is believed.
  const trustsProxy = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
  const connections = limitConnectionsPerAddress(server, {
    limit: options.maxConnectionsPerAddress || Number.POSITIVE_INFINITY,
    exempt: (address) => trustsProxy(address, 0),
  });
  const serve = answerInTurn((req, res) => {
    if (draining) res.shouldKeepAlive = false;
    toOriginForm(req);
    if (refusedWithoutHost(req, req.socket)) return;
    app(req, res);
  });
  server.on('request', serve);
  // With a listener, Node leaves `Expect: 100-continue` to it: the app answers 100 once the checks
  // that need no body have passed, and a refused request is answered without inviting the body.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    holdContinue(req);
    serve(req, res);
  });
  answerUnparsableRequests(server);
  server.listen(port, host);
  // Rejects with the server's error (a busy port) if it comes first.
  await once(server, 'listening');

  // Idle connections are closed once a second, not at once: a client may be sending a request on
  // one right now, and closing it under that request would reset it. Until then, every answer
  // carries `Connection: close`, so that clients move off by themselves.
  let sweeper: NodeJS.Timeout | undefined;
  const closeKeepAlive = (idleGraceMs: number) => {
    draining = true;
    sweeper ??= setInterval(() => server.closeIdleConnections(), idleGraceMs);
  };

  return {
    server,
    connections,
    closeKeepAlive: (idleGraceMs = 1000) => closeKeepAlive(idleGraceMs),
    drain(idleGraceMs = 1000) {
      closeKeepAlive(idleGraceMs);
      return new Promise<void>((resolve) => {
        // Closing the listener resets every connection that the kernel has completed and node has
        // not yet taken from the listen queue. Node takes them a few per turn of the event loop:
        // keep turning until a turn takes none (at most a second, against a flood), answering
        // their requests; connections attempted after that are refused.
        let tookOne = true;
        server.on('connection', () => {
          tookOne = true;
        });
        const deadline = performance.now() + ACCEPT_QUEUE_LIMIT_MS;
        const closeOnceQueueEmpty = () =>
          setImmediate(() => {
            if (tookOne && performance.now() < deadline) {
              tookOne = false;
              closeOnceQueueEmpty();
              return;
            }
            // http.Server#close would also drop idle connections at once, including one whose
            // request is on its way; the plain net close only stops accepting.
            NetServer.prototype.close.call(server, () => {
              clearInterval(sweeper);
              resolve();
            });
          });
        closeOnceQueueEmpty();
      });
    },
  };
}
