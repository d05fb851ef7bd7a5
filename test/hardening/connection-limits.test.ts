// Connections per client address, and for the process. One address past its limit has its new
// connections closed as they are accepted, while other addresses are served; the count of an
// address goes with its last connection; a proxy that TRUST_PROXY trusts is not limited; the
// process takes no more than MAX_CONNECTIONS. Then the server as a process of its own, with a low
// open-file limit, under one address holding idle connections past its limit: another client is
// served throughout. Loopback answers on all of 127/8: each client binds an address of its own.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { waitForOutput } from '../../scripts/shared/child-process.js';
import { DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, defaultMaxConnections } from '../../server/http/connection-limit.js';
import { type ConnectionLimits, type HttpServer, listen } from '../../server/http/http-server.js';
import { projectRoot } from '../support/process.js';

const TIMEOUTS = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000 };
const CLIENT = '127.0.0.1';
const GREEDY = '127.0.0.2';

interface Connection {
  socket: Socket;
  /** Resolves with what the server sent once the connection closes. */
  closed: Promise<string>;
}

/** A connection from `localAddress`, once established; it sends `request` at once, if given. */
async function open(port: number, localAddress: string, request?: string): Promise<Connection> {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  let received = '';
  socket.on('data', (chunk) => (received += chunk.toString('utf8')));
  // A connection the server closes at once may be reset before the client writes.
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  await Promise.race([new Promise((resolve) => socket.once('connect', resolve)), closed]);
  if (request !== undefined) socket.write(request);
  return { socket, closed };
}

const hello = (host: string) => `GET /hello HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;

/** What an open connection is answered to a request sent on it now: the proof that it was still open. */
function answered(connection: Connection, host: string): Promise<string> {
  connection.socket.write(hello(host));
  return connection.closed;
}

/** Whether the connection closes within `ms`. */
async function closesWithin(connection: Connection, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const closed = await Promise.race([connection.closed.then(() => true), late]);
  clearTimeout(timer);
  return closed;
}

describe('the connection limits of the HTTP server', () => {
  let http: HttpServer | undefined;
  const connections: Connection[] = [];
  afterEach(async () => {
    for (const { socket } of connections.splice(0)) socket.destroy();
    http?.server.closeAllConnections();
    await new Promise((resolve) => http?.server.close(resolve));
  });

  async function serve(limits: Partial<ConnectionLimits>, trustProxy: string | false = false): Promise<number> {
    const app = express();
    app.set('trust proxy', trustProxy);
    app.get('/hello', (_req, res) => {
      res.send('hello');
    });
    http = await listen(app, '127.0.0.1', 0, { ...TIMEOUTS, ...limits });
    return (http.server.address() as AddressInfo).port;
  }

  async function openMany(port: number, localAddress: string, count: number): Promise<Connection[]> {
    const opened: Connection[] = [];
    for (let i = 0; i < count; i++) opened.push(await open(port, localAddress));
    connections.push(...opened);
    return opened;
  }

  it('closes the connections of an address past its limit as they come, and serves other addresses', async () => {
    const port = await serve({ maxConnectionsPerAddress: 3 });
    const held = await openMany(port, GREEDY, 3);
    const past = await open(port, GREEDY, hello(GREEDY));
    connections.push(past);
    // Closed without an answer, while the request was sent.
    expect(await past.closed).toBe('');
    // The connections held within the limit are still open: each is answered.
    for (const connection of held) expect(await answered(connection, GREEDY)).toMatch(/^HTTP\/1.1 200 OK/);
    const other = await open(port, CLIENT, hello(CLIENT));
    expect(await other.closed).toMatch(/^HTTP\/1.1 200 OK[\s\S]*hello$/);
  });

  it('counts an address down as its connections close, and forgets it with the last', async () => {
    const port = await serve({ maxConnectionsPerAddress: 2 });
    const held = await openMany(port, GREEDY, 2);
    expect(http?.connections.addresses()).toBe(1);
    held[0]?.socket.destroy();
    await held[0]?.closed;
    await expect
      .poll(async () => (await closesWithin(await open(port, GREEDY, hello(GREEDY)), 2000)) && 'ok')
      .toBe('ok');
    for (const { socket } of connections) socket.destroy();
    await expect.poll(() => http?.connections.addresses()).toBe(0);
  });

  it('keeps counting an address that still has a connection open after one closes', async () => {
    const port = await serve({ maxConnectionsPerAddress: 2 });
    const held = await openMany(port, GREEDY, 2);
    held[0]?.socket.destroy();
    await held[0]?.closed;
    const openOnServer = () =>
      new Promise<number>((resolve, reject) =>
        http?.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      );
    await expect.poll(openOnServer).toBe(1);
    const second = (await openMany(port, GREEDY, 1))[0] as Connection;
    expect(await closesWithin(second, 1000)).toBe(false);
    const past = await open(port, GREEDY, hello(GREEDY));
    connections.push(past);
    expect(await past.closed).toBe('');
  });

  it('does not limit a proxy that TRUST_PROXY trusts: its connections carry many clients', async () => {
    const port = await serve({ maxConnectionsPerAddress: 2 }, 'loopback');
    const held = await openMany(port, GREEDY, 5);
    for (const connection of held) expect(await answered(connection, GREEDY)).toMatch(/^HTTP\/1.1 200 OK/);
    expect(http?.connections.addresses()).toBe(0);
  });

  it('takes at most MAX_CONNECTIONS connections in the process, whatever their addresses', async () => {
    const port = await serve({ maxConnections: 4, maxConnectionsPerAddress: 0 });
    expect(http?.server.maxConnections).toBe(4);
    await openMany(port, GREEDY, 2);
    await openMany(port, CLIENT, 2);
    const past = await open(port, '127.0.0.3', hello('127.0.0.3'));
    connections.push(past);
    expect(await past.closed).toBe('');
  });
});

describe('the server as a process with 256 open files, one address holding idle connections past its limit', () => {
  const FILE_LIMIT = 256;
  const GREEDY_CONNECTIONS = 300;
  const REQUESTS = 20;
  let child: ChildProcessWithoutNullStreams | undefined;
  afterEach(() => {
    child?.kill('SIGKILL');
  });

  it.skipIf(process.platform !== 'linux')(
    'serves another client every request, and keeps at most MAX_CONNECTIONS_PER_ADDRESS of the address open',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'connection-limits-'));
      child = spawn(
        'prlimit',
        [`--nofile=${FILE_LIMIT}:${FILE_LIMIT}`, process.execPath, '--import', 'tsx', 'server/main.ts'],
        {
          cwd: projectRoot,
          env: {
            ...process.env,
            NODE_ENV: 'production',
            LOG_LEVEL: 'info',
            PORT: '0',
            HOST: '127.0.0.1',
            DATABASE_URL: `sqlite:${join(dir, 'api.db')}`,
            SECRETS_KEY: randomBytes(32).toString('base64'),
          },
        },
      );
      const output = await waitForOutput(child, /"msg":"listening"[^\n]*\n/, 60_000);
      const port = Number(new URL(/"url":"([^"]+)"/.exec(output)?.[1] ?? '').port);
      const openFiles = () => readdirSync(`/proc/${child?.pid}/fd`).length;
      const before = openFiles();

      // Slowloris: each sends half a request head and waits; each reconnects once closed.
      const greedy: Connection[] = [];
      let stop = false;
      const hold = async () => {
        while (!stop) {
          const connection = await open(port, GREEDY, 'GET /healthz HTTP/1.1\r\n');
          greedy.push(connection);
          await connection.closed;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      const holders = Array.from({ length: GREEDY_CONNECTIONS }, hold);
      try {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const outcomes: string[] = [];
        for (let i = 0; i < REQUESTS; i++) {
          const answer = await open(
            port,
            CLIENT,
            `GET /healthz HTTP/1.1\r\nHost: ${CLIENT}\r\nConnection: close\r\n\r\n`,
          );
          outcomes.push((await answer.closed).split('\r\n')[0] || 'closed without an answer');
        }
        const held = openFiles() - before;
        expect(outcomes).toEqual(Array(REQUESTS).fill('HTTP/1.1 200 OK'));
        expect(defaultMaxConnections(FILE_LIMIT)).toBeGreaterThan(DEFAULT_MAX_CONNECTIONS_PER_ADDRESS);
        // The address's connections, and perhaps one being closed as it came.
        expect(held).toBeLessThanOrEqual(DEFAULT_MAX_CONNECTIONS_PER_ADDRESS + 1);
      } finally {
        stop = true;
        for (const { socket } of greedy) socket.destroy();
        await Promise.all(holders);
      }
    },
    60_000,
  );
});
