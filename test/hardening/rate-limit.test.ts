import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { addressKey, retryAfterSeconds } from '../../server/http/rate-limit.js';
import { call } from '../support/server.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

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
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', RATE_LIMIT_MAX: '42', RATE_LIMIT_WINDOW_MS: '1000' });
    expect(config.rateLimit).toEqual({ windowMs: 1000, limit: 42 });
    expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).rateLimit).toEqual({ windowMs: 60_000, limit: 600 });
    expect(() => loadConfig({ DATABASE_URL: 'sqlite::memory:', RATE_LIMIT_MAX: 'lots' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: 'sqlite::memory:', RATE_LIMIT_MAX: '0' })).toThrow(ConfigError);
  });
});

describe('Retry-After of a 429', () => {
  it('is never below 1 second, even for a window ending now or already past', () => {
    expect(retryAfterSeconds(0, 60_000)).toBe(1);
    expect(retryAfterSeconds(-5_000, 60_000)).toBe(1);
    expect(retryAfterSeconds(200, 60_000)).toBe(1);
  });

  it('is the seconds left in the window, rounded up; the whole window when the counter gives no time left', () => {
    expect(retryAfterSeconds(2_500, 60_000)).toBe(3);
    expect(retryAfterSeconds(undefined, 60_000)).toBe(60);
  });
});

describe('the counter key of a client address', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:203.0.113.7', '::ffff:203.0.113.7'],
    ['2001:db8:abcd:12ff::1', '2001:0db8:abcd:1200::/56'],
    ['2001:DB8:ABCD:1234:5678:9abc:def0:1', '2001:0db8:abcd:1200::/56'],
    ['::1', '0000:0000:0000:0000::/56'],
    ['fe80::', 'fe80:0000:0000:0000::/56'],
  ])('of %s is %s: IPv6 addresses count by their /56 network', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });
});
