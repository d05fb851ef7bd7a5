// Failed authentications are limited per client address: past the limit, 429 in the envelope
// with Retry-After instead of 401. Requests with a good key are never refused by it, from the same
// address either. The address is the socket's unless TRUST_PROXY says which proxies to believe.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { call, createWorkspace, startTestServer, type TestServer } from '../support/server.js';

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
