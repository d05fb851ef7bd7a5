// How the two limiters (requests per key, failed authentications per address) behave beyond their
// counting: the headers they send, the store they count in, what happens when that store fails, and
// that the rate-limit library prints nothing of its own on the way.
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { authFailureThrottle, type CounterFactory, rateLimitPerKey } from '../../server/http/rate-limit.js';
import { requestContext } from '../../server/http/request-context.js';
import { call, createWorkspace, startTestServer, type TestServer } from '../support/server.js';

/** Counters kept elsewhere (another instance, Redis): every client is already at `consumed`. */
function countedElsewhere(consumed: number, msBeforeNext: number) {
  const keys: string[] = [];
  const counters: CounterFactory = ({ points, keyPrefix }) => ({
    consume: async (key) => {
      keys.push(`${keyPrefix}:${key}`);
      const res = new RateLimiterRes(Math.max(0, points - consumed), msBeforeNext, consumed);
      if (consumed > points) throw res;
      return res;
    },
  });
  return { keys, counters };
}

/** Shared counters that cannot be reached. */
const failure = new Error('connect ECONNREFUSED 127.0.0.1:6379');
const unreachable: CounterFactory = () => ({
  consume: async () => {
    throw failure;
  },
});

let server: TestServer | undefined;
let consoleError: MockInstance<typeof console.error>;

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  consoleError.mockRestore();
  await server?.close();
  server = undefined;
});

const badKey = `sk-or-v1-${'0'.repeat(64)}`;
const listVersions = (s: TestServer, key: string, headers: Record<string, string> = {}) =>
  call(s, 'GET', '/api/v1/presets/none/versions', { key, headers });
const rateLimitHeaders = (headers: Headers) =>
  [...headers.keys()].filter((name) => name.startsWith('ratelimit') || name.startsWith('x-ratelimit'));

describe('the headers of the limiters', () => {
  it('are, per key, the IETF RateLimit headers only, without the legacy X-RateLimit ones, up to and with the 429', async () => {
    server = await startTestServer({ rateLimit: { windowMs: 60_000, limit: 1 } });
    const workspace = await createWorkspace(server.store, server.clock.now());
    const served = await listVersions(server, workspace.standardKey);
    expect(served.status).toBe(404);
    expect(rateLimitHeaders(served.headers)).toEqual(['ratelimit', 'ratelimit-policy']);
    const limited = await listVersions(server, workspace.standardKey);
    expect(limited.status).toBe(429);
    expect(rateLimitHeaders(limited.headers)).toEqual(['ratelimit', 'ratelimit-policy']);
  });

  it('are none, for failed authentications, on a 401 under the limit nor on the 429 beyond it', async () => {
    server = await startTestServer({ authFailureLimit: { windowMs: 60_000, limit: 1 } });
    const refused = await listVersions(server, badKey);
    expect(refused.status).toBe(401);
    expect(rateLimitHeaders(refused.headers)).toEqual([]);
    const limited = await listVersions(server, badKey);
    expect(limited.status).toBe(429);
    expect(rateLimitHeaders(limited.headers)).toEqual([]);
  });
});

describe('counters given to the limiters', () => {
  it('hold the count per key: a key over its limit there is refused, with the delay they give', async () => {
    const store = countedElsewhere(11, 5_000);
    server = await startTestServer({ rateLimit: { windowMs: 60_000, limit: 10, counters: store.counters } });
    const workspace = await createWorkspace(server.store, server.clock.now());
    const limited = await listVersions(server, workspace.standardKey);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: {
        code: 429,
        message: 'Too many requests for this key; retry after the delay in Retry-After.',
        metadata: null,
      },
    });
    expect(limited.headers.get('retry-after')).toBe('5');
    expect(store.keys).toHaveLength(1);
  });

  it('never asks a key to retry after 0 seconds, even when the window the store gives has already ended', async () => {
    server = await startTestServer({
      rateLimit: { windowMs: 60_000, limit: 10, counters: countedElsewhere(11, -5_000).counters },
    });
    const workspace = await createWorkspace(server.store, server.clock.now());
    const limited = await listVersions(server, workspace.standardKey);
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '1']);
  });

  it('hold the failures per address: an address over its limit there is refused, with the delay they give', async () => {
    const store = countedElsewhere(11, 5_000);
    server = await startTestServer({ authFailureLimit: { windowMs: 60_000, limit: 10, counters: store.counters } });
    const limited = await listVersions(server, badKey);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: {
        code: 429,
        message: 'Too many failed authentications from this address; retry after the delay in Retry-After.',
        metadata: null,
      },
    });
    expect(limited.headers.get('retry-after')).toBe('5');
    expect(store.keys).toEqual(['auth-failures:127.0.0.1']);
  });
});

describe('counters that fail', () => {
  const fromStore = 'rate limit: the counters cannot be reached; the request is served without a limit.';

  it('lets requests with a key through, unlimited, and the failure is printed', async () => {
    server = await startTestServer({ rateLimit: { windowMs: 60_000, limit: 1, counters: unreachable } });
    const workspace = await createWorkspace(server.store, server.clock.now());
    for (let i = 0; i < 2; i++) expect((await listVersions(server, workspace.standardKey)).status).toBe(404);
    expect(consoleError.mock.calls).toEqual([
      [fromStore, failure],
      [fromStore, failure],
    ]);
  });

  it('lets failed authentications be answered 401, unlimited, and the failure is printed', async () => {
    server = await startTestServer({ authFailureLimit: { windowMs: 60_000, limit: 1, counters: unreachable } });
    for (let i = 0; i < 2; i++) expect((await listVersions(server, badKey)).status).toBe(401);
    expect(consoleError.mock.calls).toEqual([
      [fromStore, failure],
      [fromStore, failure],
    ]);
  });
});

describe('the rate-limit library', () => {
  it('prints no warning when X-Forwarded-For comes without TRUST_PROXY: the README says how to set it', async () => {
    server = await startTestServer({ authFailureLimit: { windowMs: 60_000, limit: 10 } });
    const refused = await listVersions(server, badKey, { 'x-forwarded-for': '203.0.113.7' });
    expect(refused.status).toBe(401);
    expect(consoleError.mock.calls).toEqual([]);
  });

  describe('for a request counted twice', () => {
    let app: Server | undefined;

    afterEach(async () => {
      app?.closeAllConnections();
      await new Promise((resolve) => app?.close(resolve));
      app = undefined;
    });

    async function serve(routes: (app: Express) => void): Promise<string> {
      const express_ = express();
      routes(express_);
      app = express_.listen(0, '127.0.0.1');
      await once(app, 'listening');
      return `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    }

    it('per key (the limiter mounted twice on one route), counts it twice and prints nothing', async () => {
      const limiter = rateLimitPerKey({ windowMs: 60_000, limit: 5 });
      const baseUrl = await serve((app) =>
        app.get(
          '/twice',
          (req, _res, next) => {
            requestContext(req).caller = { keyId: 'key-1', workspaceId: 'workspace-1', kind: 'standard' };
            next();
          },
          limiter,
          limiter,
          (_req, res) => {
            res.status(204).end();
          },
        ),
      );
      const response = await fetch(`${baseUrl}/twice`);
      expect(response.status).toBe(204);
      expect(response.headers.get('ratelimit')).toBe('"per-key"; r=4; t=60, "per-key"; r=3; t=60');
      expect(consoleError.mock.calls).toEqual([]);
    });

    it('per address (the failure counted twice), counts it twice and prints nothing', async () => {
      const countFailure = authFailureThrottle({ windowMs: 60_000, limit: 3 });
      const baseUrl = await serve((app) =>
        app.get('/twice', async (req, res) => {
          await countFailure(req, res);
          await countFailure(req, res);
          res.status(204).end();
        }),
      );
      // Counts 1 and 2, then 3 and 4: the fourth is past the limit of 3.
      expect((await fetch(`${baseUrl}/twice`)).status).toBe(204);
      expect((await fetch(`${baseUrl}/twice`)).status).toBe(429);
      expect(consoleError.mock.calls).toEqual([]);
    });
  });
});
