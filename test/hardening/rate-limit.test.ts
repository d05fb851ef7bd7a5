// The two rate limits of server/rate-limit/rate-limit.ts: requests per calling key, and failed
// authentications per client address; their settings, the headers they send, the counters they
// keep. Their counters shared by several processes through Redis: rate-limit-redis.test.ts.

import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { requestContext } from '../../server/http/request-context.js';
import { authFailureThrottle, type CounterFactory, rateLimitPerKey } from '../../server/rate-limit/rate-limit.js';
import { call, createWorkspace, startTestServer, type TestServer } from '../support/server.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

describe('requests per key', () => {
  const LIMIT = 5;
  const server = useTestServer({ rateLimit: { windowMs: 60_000, limit: LIMIT } });
  const workspace = useWorkspace(server);

  const list = (key?: string) => call(server, 'GET', '/api/v1/presets/none/versions', key === undefined ? {} : { key });

  describe('rate limit per calling key', () => {
    it('announces the quota, then answers 429 in the envelope with Retry-After', async () => {
      for (let i = 0; i < LIMIT; i++) {
        const response = await list(workspace.standardKey);
        expect(response.status).toBe(404);
        expect(response.headers.get('ratelimit')).toMatch(new RegExp(`^"per-key"; r=${LIMIT - 1 - i}; t=\\d+$`));
        expect(response.headers.get('ratelimit-policy')).toMatch(
          new RegExp(`^"per-key"; q=${LIMIT}; w=60(; pk=:[A-Za-z0-9+/=]+:)?$`),
        );
      }
      const limited = await list(workspace.standardKey);
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ error: { code: 429, message: expect.any(String), metadata: null } });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(limited.headers.get('ratelimit')).toMatch(/r=0/);
    });

    it('counts each key on its own', async () => {
      const response = await list(workspace.managementKey);
      expect(response.status).toBe(404);
      expect(response.headers.get('ratelimit')).toMatch(new RegExp(`r=${LIMIT - 1}`));
    });

    it('does not count unauthenticated requests against a key, nor limit them by key', async () => {
      const anonymous = await list();
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('ratelimit')).toBeNull();
    });
  });

  describe('rate-limit configuration', () => {
    it('reads RATE_LIMIT_MAX and RATE_LIMIT_WINDOW_MS, and refuses nonsense', () => {
      const config = loadConfig({
        DATABASE_URL: 'sqlite::memory:',
        RATE_LIMIT_MAX: '42',
        RATE_LIMIT_WINDOW_MS: '1000',
      });
      expect(config.rateLimit).toEqual({ windowMs: 1000, limit: 42 });
      expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).rateLimit).toEqual({ windowMs: 60_000, limit: 600 });
      expect(() => loadConfig({ DATABASE_URL: 'sqlite::memory:', RATE_LIMIT_MAX: 'lots' })).toThrow(ConfigError);
      expect(() => loadConfig({ DATABASE_URL: 'sqlite::memory:', RATE_LIMIT_MAX: '0' })).toThrow(ConfigError);
    });
  });
});

// Failed authentications are limited per client address: past the limit, 429 in the envelope
// with Retry-After instead of 401. Requests with a good key are never refused by it, from the same
// address either. The address is the socket's unless TRUST_PROXY says which proxies to believe.
describe('failed authentications per address', () => {
  const LIMIT = 100;
  const oneMinute = { windowMs: 60_000, limit: LIMIT };
  const badKey = () => `sk-or-v1-${randomBytes(32).toString('hex')}`;
  let server: TestServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const getKey = (s: TestServer, key: string, headers: Record<string, string> = {}) =>
    call(s, 'GET', `/api/v1/keys/${'0'.repeat(64)}`, { key, headers });

  describe('the failed-authentication throttle', () => {
    it('answers 150 bad keys from one address with 401 up to the limit, then 429; a good key is still served', async () => {
      server = await startTestServer({ authFailureLimit: oneMinute });
      const workspace = await createWorkspace(server.store, server.clock.now());
      const statuses: number[] = [];
      for (let i = 0; i < 150; i++) {
        const response = await getKey(server, badKey());
        statuses.push(response.status);
        if (i === 149) {
          expect(response.body).toMatchObject({
            error: { code: 429, message: expect.stringContaining('failed authentications from this address') },
          });
          expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
          expect(Number(response.headers.get('retry-after'))).toBeLessThanOrEqual(60);
        }
      }
      expect(statuses.slice(0, LIMIT)).toEqual(Array.from({ length: LIMIT }, () => 401));
      expect(statuses.slice(LIMIT)).toEqual(Array.from({ length: 50 }, () => 429));

      // The same address, a good key: served (404 is the answer for a key hash it does not have).
      expect((await getKey(server, workspace.managementKey)).status).toBe(404);
      // Missing and malformed keys count as failures too.
      expect((await call(server, 'GET', '/api/v1/presets/p/versions')).status).toBe(429);
      expect((await getKey(server, 'not-a-key')).status).toBe(429);
    }, 30_000);

    it('never counts requests that authenticate', async () => {
      server = await startTestServer({ authFailureLimit: { windowMs: 60_000, limit: 3 } });
      const workspace = await createWorkspace(server.store, server.clock.now());
      for (let i = 0; i < 10; i++) expect((await getKey(server, workspace.managementKey)).status).toBe(404);
      for (let i = 0; i < 3; i++) {
        const refused = await getKey(server, badKey());
        expect(refused.status).toBe(401);
        // A 401 under the limit carries no rate-limit headers of its own.
        expect(refused.headers.get('ratelimit')).toBeNull();
      }
      expect((await getKey(server, badKey())).status).toBe(429);
    });

    it('takes the address from the socket by default: X-Forwarded-For cannot spread the guesses', async () => {
      server = await startTestServer({ authFailureLimit: { windowMs: 60_000, limit: 3 } });
      const statuses = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await getKey(server, badKey(), { 'x-forwarded-for': `203.0.113.${i}` })).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    });

    it('takes the address from X-Forwarded-For when TRUST_PROXY trusts the proxy in front', async () => {
      server = await startTestServer({ authFailureLimit: { windowMs: 60_000, limit: 3 }, trustProxy: 'loopback' });
      const from = (address: string) => getKey(server as TestServer, badKey(), { 'x-forwarded-for': address });
      for (let i = 0; i < 3; i++) expect((await from('203.0.113.7')).status).toBe(401);
      expect((await from('203.0.113.7')).status).toBe(429);
      // Another client behind the same proxy has a count of its own.
      expect((await from('198.51.100.9')).status).toBe(401);
    });
  });

  describe('its configuration', () => {
    const env = { NODE_ENV: 'test', DATABASE_URL: 'sqlite::memory:' };

    it('is 100 failures a minute by default, set by AUTH_FAILURE_LIMIT', () => {
      expect(loadConfig(env).authFailureLimit).toEqual({ windowMs: 60_000, limit: 100 });
      expect(loadConfig({ ...env, AUTH_FAILURE_LIMIT: '20' }).authFailureLimit.limit).toBe(20);
      expect(() => loadConfig({ ...env, AUTH_FAILURE_LIMIT: 'many' })).toThrow(ConfigError);
    });

    it('trusts no proxy unless TRUST_PROXY says which', () => {
      expect(loadConfig(env).trustProxy).toBe(false);
      expect(loadConfig({ ...env, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
      expect(loadConfig({ ...env, TRUST_PROXY: '2' }).trustProxy).toBe(2);
      expect(loadConfig({ ...env, TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
      expect(() => loadConfig({ ...env, TRUST_PROXY: 'my-proxy' })).toThrow(ConfigError);
      expect(() => loadConfig({ ...env, TRUST_PROXY: '10.0.0.0/99' })).toThrow(ConfigError);
    });
  });
});

// How the two limiters (requests per key, failed authentications per address) behave beyond their
// counting: the headers they send, the store they count in, what happens when that store fails, and
// that the rate-limit library prints nothing of its own on the way.
describe('the limiters beyond their counting', () => {
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
});
