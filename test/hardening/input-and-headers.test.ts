import { connect } from 'node:net';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.js';
import { listen } from '../../server/http/http-server.js';
import { UNREACHABLE_RATE_LIMIT } from '../../server/rate-limit/rate-limit.js';
import { call, spec, startTestServer } from '../support/server.js';
import { useDestination, useTestServer, useWorkspace } from '../support/use-test-server.js';

const server = useTestServer({ corsOrigins: ['https://console.example.com'] });
const workspace = useWorkspace(server);
const destination = useDestination(server, workspace);

afterAll(() => {
  expect(server.serverErrors()).toEqual([]);
});

describe('input limits', () => {
  it('rejects deeply nested JSON with 400 and stays responsive', async () => {
    const depth = 40_000;
    const nested = `{"name":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    expect(nested.length).toBeLessThan(100 * 1024);
    const [answer, health] = await Promise.all([
      call(server, 'PATCH', destination.path, {
        key: workspace.managementKey,
        rawBody: nested,
        headers: { 'content-type': 'application/json' },
      }),
      call(server, 'GET', '/healthz'),
    ]);
    expect(answer.status).toBe(400);
    expect(answer.body.error.metadata.errors[0].path).toBe('/body/name');
    expect(health.status).toBe(200);
  });

  it('rejects a huge JSON document with 413 before parsing it', async () => {
    const huge = JSON.stringify({ name: 'n', api_key_hashes: Array.from({ length: 50_000 }, (_, i) => `h${i}`) });
    const answer = await call(server, 'PATCH', destination.path, {
      key: workspace.managementKey,
      rawBody: huge,
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe(413);
  });

  it('closes the connection of a client that sends its headers too slowly', async () => {
    const app = createApp({
      store: server.store,
      clock: server.clock.now,
      logger: pino({ level: 'silent' }),
      spec,
      validateResponses: true,
      rateLimit: UNREACHABLE_RATE_LIMIT,
      authFailureLimit: UNREACHABLE_RATE_LIMIT,
    });
    const { server: slowServer } = await listen(app, '127.0.0.1', 0, {
      headersTimeoutMs: 500,
      requestTimeoutMs: 2000,
      keepAliveTimeoutMs: 1000,
    });
    const { port } = slowServer.address() as { port: number };
    try {
      // What the socket received is checked here, once it closed: a failure is then this test's own.
      const { closedAfterMs, received } = await new Promise<{ closedAfterMs: number; received: string }>(
        (resolve, reject) => {
          const started = Date.now();
          const socket = connect(port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n'));
          let data = '';
          socket.on('data', (chunk) => (data += chunk.toString()));
          // One header byte every 100 ms: never a whole head within the timeout.
          const drip = setInterval(() => socket.writable && socket.write('X'), 100);
          const giveUp = setTimeout(() => {
            clearInterval(drip);
            socket.destroy();
            reject(new Error('the slow client was never cut off'));
          }, 5000);
          socket.on('close', () => {
            clearInterval(drip);
            clearTimeout(giveUp);
            resolve({ closedAfterMs: Date.now() - started, received: data });
          });
        },
      );
      // Nothing, or a 408: a failure shows the status line the client got instead.
      expect(received.split('\r\n')[0]).toMatch(/^(HTTP\/1\.1 408 .*)?$/);
      expect(closedAfterMs).toBeLessThan(5000);
      const healthy = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(healthy.status).toBe(200);
    } finally {
      slowServer.closeAllConnections();
      slowServer.close();
    }
  });
});

describe('CORS', () => {
  it('answers CORS only for an allowed origin', async () => {
    const allowed = await call(server, 'GET', '/healthz', { headers: { origin: 'https://console.example.com' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://console.example.com');
    // Every response header the spec documents is readable by a browser client (the ETag first of all).
    const exposed = allowed.headers.get('access-control-expose-headers')?.split(',') ?? [];
    expect(exposed).toEqual(
      expect.arrayContaining([
        'ETag',
        'RateLimit',
        'RateLimit-Policy',
        'Retry-After',
        'WWW-Authenticate',
        'X-Request-Id',
      ]),
    );
    const other = await call(server, 'GET', '/healthz', { headers: { origin: 'https://evil.example.net' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await call(server, 'OPTIONS', destination.path, {
      headers: {
        origin: 'https://console.example.com',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization,content-type,if-match',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('if-match');
  });

  it('keeps CORS off when no origin is allowed', async () => {
    const plain = await startTestServer();
    try {
      const response = await call(plain, 'GET', '/healthz', { headers: { origin: 'https://console.example.com' } });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await plain.close();
    }
  });
});
