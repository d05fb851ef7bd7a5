// The HTTP server around the app, in this process: the timeouts it is given, keep-alive until
// closeKeepAlive and `Connection: close` after it, idle connections closed after the grace period,
// a drain that refuses new connections but answers the open ones, and a busy port.
import { once } from 'node:events';
import { Agent, request, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { type HttpServer, type HttpTimeouts, listen } from '../../server/http/http-server.js';

const TIMEOUTS: HttpTimeouts = { headersTimeoutMs: 2000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 60_000 };

const app = express();
app.get('/hello', (_req, res) => {
  res.send('hello');
});

interface Answer {
  status: number;
  body: string;
  connection: string | undefined;
  socket: Socket;
}

function portOf(http: HttpServer): number {
  return (http.server.address() as AddressInfo).port;
}

/** GET /hello through an agent: a keep-alive agent of one socket sends every request on the same connection. */
function hello(port: number, agent: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/hello', agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body,
          connection: res.headers.connection,
          socket: req.socket as Socket,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** Fails the test at once when `promise` has not settled in time, instead of at the test timeout. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

function keepAliveAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 1 });
}

describe('the HTTP server', () => {
  it('is set up with the given timeouts, checked a quarter of the header timeout apart, within 100 ms and 1 s', async () => {
    const settings = [];
    for (const headersTimeoutMs of [200, 2000, 10_000]) {
      const http = await listen(app, '127.0.0.1', 0, { ...TIMEOUTS, headersTimeoutMs });
      const server = http.server as Server & { connectionsCheckingInterval: number };
      settings.push({
        headersTimeout: server.headersTimeout,
        requestTimeout: server.requestTimeout,
        keepAliveTimeout: server.keepAliveTimeout,
        checkedEvery: server.connectionsCheckingInterval,
      });
      await http.drain();
    }
    const common = { requestTimeout: 30_000, keepAliveTimeout: 60_000 };
    expect(settings).toEqual([
      { ...common, headersTimeout: 200, checkedEvery: 100 },
      { ...common, headersTimeout: 2000, checkedEvery: 500 },
      { ...common, headersTimeout: 10_000, checkedEvery: 1000 },
    ]);
  });

  it('keeps connections alive until closeKeepAlive, then answers on them with Connection: close', async () => {
    const http = await listen(app, '127.0.0.1', 0, TIMEOUTS);
    const agent = keepAliveAgent();
    try {
      const first = await hello(portOf(http), agent);
      const second = await hello(portOf(http), agent);
      http.closeKeepAlive();
      const third = await hello(portOf(http), agent);
      expect([first, second, third].map(({ status, body, connection }) => ({ status, body, connection }))).toEqual([
        { status: 200, body: 'hello', connection: 'keep-alive' },
        { status: 200, body: 'hello', connection: 'keep-alive' },
        { status: 200, body: 'hello', connection: 'close' },
      ]);
      expect(third.socket).toBe(first.socket);
    } finally {
      agent.destroy();
      await http.drain();
    }
  });

  it('after closeKeepAlive, closes a keep-alive connection that stays idle for the grace period', async () => {
    const http = await listen(app, '127.0.0.1', 0, TIMEOUTS);
    const agent = keepAliveAgent();
    try {
      const { socket, connection } = await hello(portOf(http), agent);
      expect(connection).toBe('keep-alive');
      const closed = once(socket, 'close');
      http.closeKeepAlive(20);
      await within(closed, 2000, 'the idle connection closed');
    } finally {
      agent.destroy();
      await http.drain();
    }
  });

  it('drains: refuses new connections, answers a request on an open one with Connection: close, then resolves', async () => {
    const http = await listen(app, '127.0.0.1', 0, TIMEOUTS);
    const port = portOf(http);
    const agent = keepAliveAgent();
    const first = await hello(port, agent);
    let drained = false;
    // A grace period longer than the test: only the answer with Connection: close ends the connection.
    const draining = http.drain(60_000).then(() => {
      drained = true;
    });
    await expect(hello(port, new Agent())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(drained).toBe(false);
    const second = await hello(port, agent);
    expect(second.socket).toBe(first.socket);
    expect([second.status, second.body, second.connection]).toEqual([200, 'hello', 'close']);
    await within(draining, 2000, 'the drain');
    expect(http.server.listening).toBe(false);
  });

  it('drains a connection left idle by closing it after the grace period', async () => {
    const http = await listen(app, '127.0.0.1', 0, TIMEOUTS);
    const agent = keepAliveAgent();
    const { socket } = await hello(portOf(http), agent);
    const closed = once(socket, 'close');
    await within(http.drain(20), 2000, 'the drain');
    await within(closed, 2000, 'the idle connection closed');
  });

  it('fails to start when the port is taken', async () => {
    const taken = createNetServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    try {
      const { port } = taken.address() as AddressInfo;
      await expect(within(listen(app, '127.0.0.1', port, TIMEOUTS), 2000, 'listen')).rejects.toMatchObject({
        code: 'EADDRINUSE',
      });
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
