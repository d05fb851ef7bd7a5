// The HTTP server around the app, in this process: the timeouts it is given, keep-alive until
// closeKeepAlive and `Connection: close` after it, idle connections closed after the grace period,
// a drain that answers the open connections and those already in the listen queue, then refuses
// new ones, and a busy port.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, stat } from 'node:fs';
import { Agent, request, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { collectOutput } from '../../scripts/shared/child-process.js';
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

async function listenerClosed(http: HttpServer): Promise<void> {
  while (http.server.listening) await new Promise((resolve) => setTimeout(resolve, 5));
}

const QUEUED = 40;
/**
 * In a process of its own: COUNT connections, each sending one GET /hello as soon as it is
 * connected; writes CONNECTED_FILE once the kernel has completed them all; prints the tally of
 * status lines and socket errors once every connection has ended.
 */
const QUEUED_CLIENT = `
import { connect } from 'node:net';
import { writeFileSync } from 'node:fs';
const count = Number(process.env.COUNT);
const tally = {};
let connected = 0;
let ended = 0;
const note = (what) => {
  tally[what] = (tally[what] ?? 0) + 1;
  if (++ended === count) console.log(JSON.stringify(tally));
};
for (let i = 0; i < count; i++) {
  const socket = connect(Number(process.env.PORT), '127.0.0.1', () => {
    socket.write('GET /hello HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n\\r\\n');
    if (++connected === count) writeFileSync(process.env.CONNECTED_FILE, '');
  });
  let answer = '';
  let settled = false;
  socket.on('data', (chunk) => (answer += chunk));
  socket.on('error', (err) => { if (!settled) { settled = true; note(err.code); } });
  socket.on('close', () => { if (!settled) { settled = true; note(answer.split('\\r\\n')[0] || 'closed without an answer'); } });
}
`;

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
    await within(listenerClosed(http), 2000, 'the listener closed');
    await expect(hello(port, new Agent())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(drained).toBe(false);
    const second = await hello(port, agent);
    expect(second.socket).toBe(first.socket);
    expect([second.status, second.body, second.connection]).toEqual([200, 'hello', 'close']);
    await within(draining, 2000, 'the drain');
    expect(http.server.listening).toBe(false);
  });

  // A drain starts outside the event loop's poll phase (a test, a timer) or inside it (a signal, an
  // I/O callback, where the queue's connections are not yet seen this turn): both take them all.
  it.each([
    ['outside the poll phase', (drain: () => void) => drain()],
    ['inside the poll phase', (drain: () => void) => stat('.', drain)],
  ])(
    'drains, %s: answers every connection already in the listen queue, then refuses new ones (none reset)',
    async (_where, startDrain) => {
      const http = await listen(app, '127.0.0.1', 0, TIMEOUTS);
      const port = portOf(http);
      const connected = join(mkdtempSync(join(tmpdir(), 'drain-queue-')), 'connected');
      const client = spawn(process.execPath, ['--input-type=module', '-e', QUEUED_CLIENT], {
        env: { ...process.env, PORT: String(port), COUNT: String(QUEUED), CONNECTED_FILE: connected },
      });
      const finished = collectOutput(client);
      const draining = new Promise<void>((resolve, reject) =>
        startDrain(() => {
          // This event loop stays blocked until the kernel has completed every connection of the
          // client: all of them wait in the listen queue, none taken by the server, when the drain starts.
          const until = Date.now() + 10_000;
          while (!existsSync(connected) && Date.now() < until)
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
          if (!existsSync(connected)) return reject(new Error('the client did not connect within 10 s'));
          http.drain().then(resolve, reject);
        }),
      );
      const { stdout, stderr } = await within(finished, 10_000, 'the queued requests');
      expect(JSON.parse(stdout || '{}'), stderr).toEqual({ 'HTTP/1.1 200 OK': QUEUED });
      await within(draining, 5000, 'the drain');
      await expect(hello(port, new Agent())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    },
  );

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
