// What createApp puts around the operations: CORS only when origins are allowed, the readiness
// answer while shutting down, the probes logged only when they fail, no automatic ETags, how query
// strings are read, every failing parameter named in one 400, and the docs' own headers kept to
// the docs.
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AppDeps, createApp } from '../../server/app.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { UNREACHABLE_RATE_LIMIT } from '../../server/rate-limit/rate-limit.js';
import { openStore, type Store } from '../../server/store/store.js';
import { listenOnLoopback } from '../support/listen.js';
import { call, spec, startTestServer } from '../support/server.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

let store: Store;

beforeAll(async () => {
  store = await openStore('sqlite::memory:', createSecretBox(randomBytes(32)));
});

afterAll(async () => {
  await store.close();
});

/** An app of createApp with only the dependencies it requires (and the given ones), served on a free port. */
async function serve(deps: Partial<AppDeps>, run: (baseUrl: string) => Promise<void>): Promise<void> {
  const app = createApp({
    store,
    clock: () => new Date('2026-11-18T12:00:00.000Z'),
    logger: pino({ level: 'silent' }),
    spec,
    validateResponses: true,
    rateLimit: UNREACHABLE_RATE_LIMIT,
    authFailureLimit: UNREACHABLE_RATE_LIMIT,
    ...deps,
  });
  const listening = await listenOnLoopback(app);
  try {
    await run(listening.baseUrl);
  } finally {
    await listening.close();
  }
}

const preflight = (baseUrl: string) =>
  fetch(`${baseUrl}/api/v1/keys/abc`, {
    method: 'OPTIONS',
    headers: {
      origin: 'https://console.example.com',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    },
  });

describe('CORS', () => {
  it('allows the headers the operations take and no other', async () => {
    const server = await startTestServer({ corsOrigins: ['https://console.example.com'] });
    try {
      const response = await preflight(server.baseUrl);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://console.example.com');
      expect(response.headers.get('access-control-allow-methods')).toBe('GET,PATCH');
      // The spec's header parameters: the W3C trace context of every operation, If-Match and If-None-Match.
      expect(response.headers.get('access-control-allow-headers')).toBe(
        'Authorization,Content-Type,X-Request-Id,traceparent,tracestate,If-Match,If-None-Match',
      );
      expect(response.headers.get('access-control-max-age')).toBe('600');
    } finally {
      await server.close();
    }
  });

  it('is off when the list of origins is empty or not given: a preflight is an ordinary request', async () => {
    for (const corsOrigins of [[], undefined]) {
      await serve(corsOrigins ? { corsOrigins } : {}, async (baseUrl) => {
        const response = await preflight(baseUrl);
        expect(response.status).toBe(405);
        // The path takes GET, and so HEAD (openapi.yaml, "HEAD").
        expect(response.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD']);
        expect(response.headers.get('access-control-allow-methods')).toBeNull();
        expect(response.headers.get('access-control-allow-headers')).toBeNull();
        expect(response.headers.get('vary')).toBeNull();
        expect(await response.json()).toEqual({ error: { code: 405, message: 'Method not allowed.', metadata: null } });
      });
    }
  });
});

describe('readiness', () => {
  it('answers 503 in the envelope once the server is shutting down', async () => {
    let shuttingDown = false;
    await serve({ shuttingDown: () => shuttingDown }, async (baseUrl) => {
      const ready = await fetch(`${baseUrl}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready' });
      shuttingDown = true;
      const stopping = await fetch(`${baseUrl}/readyz`);
      expect(stopping.status).toBe(503);
      expect(await stopping.json()).toEqual({
        error: { code: 503, message: 'The server is shutting down.', metadata: null },
      });
      // Liveness is another question: the process is still healthy.
      expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
    });
  });

  it("logs the probes only when they fail: a balancer's checks do not bury the traffic", async () => {
    const logged: { msg: string; req?: { path: string } }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    let shuttingDown = false;
    await serve({ logger, shuttingDown: () => shuttingDown }, async (baseUrl) => {
      for (const path of ['/healthz', '/readyz', '/openapi.json'])
        await (await fetch(`${baseUrl}${path}`)).arrayBuffer();
      shuttingDown = true;
      await (await fetch(`${baseUrl}/readyz`)).arrayBuffer();
      await vi.waitFor(() => expect(logged).toHaveLength(2));
    });
    expect(logged.map((line) => `${line.msg} ${line.req?.path}`)).toEqual(['GET 200 /openapi.json', 'GET 503 /readyz']);
  });
});

describe('answers of the server', () => {
  const server = useTestServer();
  const workspace = useWorkspace(server);

  it('carry no ETag of their own: only the operations that document one send it', async () => {
    for (const path of ['/healthz', '/readyz', '/openapi.json']) {
      const response = await call(server, 'GET', path);
      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).toBeNull();
    }
    const key = await call(server, 'GET', `/api/v1/keys/${workspace.standardKeyHash}`, {
      key: workspace.managementKey,
    });
    expect(key.status).toBe(200);
    expect(key.headers.get('etag')).toBeNull();
  });

  it('name every failing query parameter in one 400', async () => {
    const response = await call(server, 'GET', '/api/v1/presets/support-agent/versions?offset=-1&limit=0', {
      key: workspace.standardKey,
    });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe('Invalid request: /query/offset must be >= 0; /query/limit must be >= 1');
    expect(response.body.error.metadata.errors.map((e: { path: string }) => e.path)).toEqual([
      '/query/offset',
      '/query/limit',
    ]);
  });

  it('read brackets in a query string as structure, which a parameter of the spec refuses', async () => {
    const response = await call(server, 'GET', '/api/v1/presets/support-agent/versions?limit[max]=5', {
      key: workspace.standardKey,
    });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe('Invalid request: /query/limit must be integer');
  });

  it('outside /docs, keep the API’s own content security policy', async () => {
    const api = (await call(server, 'GET', '/healthz')).headers.get('content-security-policy');
    const unknown = await call(server, 'GET', '/no-such-path');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: { code: 404, message: 'Not found.', metadata: null } });
    expect(unknown.headers.get('content-security-policy')).toBe(api);
    const docs = (await call(server, 'GET', '/docs')).headers.get('content-security-policy');
    expect(docs).toContain("script-src 'self' 'unsafe-inline'");
    expect(api).not.toContain("script-src 'self' 'unsafe-inline'");
  });
});
