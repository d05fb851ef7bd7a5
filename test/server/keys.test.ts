import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type NewKeyInput, recordUsage } from '../../server/provisioning/provision.js';
import { call, NO_USAGE, provision } from '../support/server.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

// Wednesday 18 November 2026: the week began on Monday the 16th, the month on the 1st.
const NOW = '2026-11-18T12:00:00.000Z';

const server = useTestServer({ now: NOW });
const workspace = useWorkspace(server);
const otherWorkspace = useWorkspace(server, 'Other workspace');

afterEach(() => {
  server.clock.set(NOW);
});

afterAll(() => {
  expect(server.serverErrors()).toEqual([]);
});

async function newKey(input: Partial<NewKeyInput> = {}) {
  return provision.createKey(
    server.store,
    { workspaceId: workspace.id, name: 'Usage key', kind: 'standard', ...input },
    server.clock.now(),
  );
}

async function spend(hash: string, at: string, amount: number, byok = false) {
  await recordUsage(server.store, { keyHash: hash, amount, byok, at: new Date(at) });
}

/** Usage in every window: 1 today, 2 earlier this week, 4 earlier this month, 8 last month; BYOK 0.5 today, 0.25 this month. */
async function keyWithUsage(input: Partial<NewKeyInput> = {}) {
  const key = await newKey(input);
  await spend(key.hash, '2026-11-18T03:00:00.000Z', 1);
  await spend(key.hash, '2026-11-16T00:00:00.000Z', 2);
  await spend(key.hash, '2026-11-15T23:59:59.999Z', 4);
  await spend(key.hash, '2026-10-31T23:00:00.000Z', 8);
  await spend(key.hash, '2026-11-18T11:59:00.000Z', 0.5, true);
  await spend(key.hash, '2026-11-02T10:00:00.000Z', 0.25, true);
  return key;
}

const getKey = (hash: string, key = workspace.managementKey) => call(server, 'GET', `/api/v1/keys/${hash}`, { key });

describe('getKey', () => {
  it('returns every field of the key, with a masked label and never the key itself', async () => {
    const key = await newKey({
      name: 'Production backend',
      creatorUserId: 'user_42',
      externalUser: 'customer_4812',
      expiresAt: '2027-01-01T00:00:00Z',
    });
    const response = await getKey(key.hash);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      hash: key.hash,
      name: 'Production backend',
      label: `${key.rawKey.slice(0, 12)}...${key.rawKey.slice(-4)}`,
      disabled: false,
      limit: null,
      limit_remaining: null,
      limit_reset: null,
      include_byok_in_limit: false,
      ...NO_USAGE,
      created_at: NOW,
      updated_at: null,
      expires_at: '2027-01-01T00:00:00.000Z',
      creator_user_id: 'user_42',
      external_user: 'customer_4812',
      workspace_id: workspace.id,
    });
    expect(response.body.data.label).toMatch(/^sk-or-v1-[0-9a-f]{3}\.\.\.[0-9a-f]{4}$/);
    expect(JSON.stringify(response.body)).not.toContain(key.rawKey.slice(12, -4));
  });

  it('sums usage by UTC day, Monday-to-Sunday week and month, and all time', async () => {
    const key = await keyWithUsage();
    const { body } = await getKey(key.hash);
    expect(body.data).toMatchObject({
      usage: 15,
      usage_daily: 1,
      usage_weekly: 3,
      usage_monthly: 7,
      byok_usage: 0.75,
      byok_usage_daily: 0.5,
      byok_usage_weekly: 0.5,
      byok_usage_monthly: 0.75,
    });
  });

  describe('windows roll over with the clock, with no job', () => {
    it('starts a new day at UTC midnight', async () => {
      const key = await keyWithUsage();
      server.clock.set('2026-11-18T23:59:59.999Z');
      expect((await getKey(key.hash)).body.data.usage_daily).toBe(1);
      server.clock.set('2026-11-19T00:00:00.000Z');
      const { body } = await getKey(key.hash);
      expect(body.data).toMatchObject({
        usage_daily: 0,
        usage_weekly: 3,
        usage_monthly: 7,
        byok_usage_daily: 0,
        usage: 15,
      });
    });

    it('starts a new week on Monday', async () => {
      const key = await keyWithUsage();
      server.clock.set('2026-11-22T23:59:59.000Z');
      expect((await getKey(key.hash)).body.data.usage_weekly).toBe(3);
      server.clock.set('2026-11-23T00:00:00.000Z');
      expect((await getKey(key.hash)).body.data).toMatchObject({ usage_weekly: 0, usage_monthly: 7 });
    });

    it('starts a new month on the 1st, while a week can span two months', async () => {
      const key = await newKey();
      await spend(key.hash, '2026-11-30T10:00:00.000Z', 5);
      server.clock.set('2026-12-01T00:00:00.000Z');
      expect((await getKey(key.hash)).body.data).toMatchObject({ usage_daily: 0, usage_weekly: 5, usage_monthly: 0 });
      await spend(key.hash, '2026-12-01T10:00:00.000Z', 3);
      server.clock.set('2026-12-02T09:00:00.000Z');
      expect((await getKey(key.hash)).body.data).toMatchObject({
        usage_daily: 0,
        usage_weekly: 8,
        usage_monthly: 3,
        usage: 8,
      });
    });
  });

  describe('limit_remaining', () => {
    it.each([
      ['a daily limit counts today', { limit: 5, limitReset: 'daily' as const }, 4],
      ['a weekly limit counts this week', { limit: 5, limitReset: 'weekly' as const }, 2],
      ['a monthly limit counts this month', { limit: 10, limitReset: 'monthly' as const }, 3],
      ['a limit that never resets counts all time', { limit: 20, limitReset: null }, 5],
      [
        'BYOK usage counts when include_byok_in_limit is true',
        { limit: 10, limitReset: 'monthly' as const, includeByokInLimit: true },
        2.25,
      ],
      ['it never goes below 0', { limit: 2, limitReset: 'monthly' as const }, 0],
      ['a limit of 0 leaves 0', { limit: 0, limitReset: null }, 0],
    ])('%s', async (_name, input, expected) => {
      const key = await keyWithUsage(input);
      const { body } = await getKey(key.hash);
      expect(body.data.limit).toBe(input.limit);
      expect(body.data.limit_reset).toBe(input.limitReset);
      expect(body.data.limit_remaining).toBeCloseTo(expected, 10);
    });

    it('is null when there is no limit', async () => {
      const key = await keyWithUsage({ limit: null });
      expect((await getKey(key.hash)).body.data).toMatchObject({ limit: null, limit_remaining: null });
    });
  });

  it('returns a disabled key with disabled: true', async () => {
    const key = await newKey();
    await server.store.keys.setDisabled(key.hash, true, new Date('2026-11-18T13:00:00.000Z'));
    const { status, body } = await getKey(key.hash);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ disabled: true, updated_at: '2026-11-18T13:00:00.000Z' });
  });

  it('answers 404 for an unknown hash and for a key of another workspace, alike', async () => {
    const unknown = await getKey('0'.repeat(64));
    expect(unknown.status).toBe(404);
    const foreign = await getKey(otherWorkspace.standardKeyHash);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
    expect((await getKey(otherWorkspace.standardKeyHash, otherWorkspace.managementKey)).status).toBe(200);
  });

  it('answers 404 for a hash that is not even hex', async () => {
    const response = await getKey('not-a-hash');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe(404);
  });

  it('answers 403 to a standard key', async () => {
    const response = await getKey(workspace.standardKeyHash, workspace.standardKey);
    expect(response.status).toBe(403);
    // The kinds come from the operation's security requirement in the spec.
    expect(response.body).toEqual({
      error: {
        code: 403,
        message: 'This operation needs a management key.',
        metadata: { accepted_key_kinds: ['management'] },
      },
    });
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="api", error="insufficient_scope", scope="management"',
    );
  });
});

describe('authentication', () => {
  const path = () => `/api/v1/keys/${workspace.standardKeyHash}`;

  it.each([
    ['no Authorization header', undefined],
    ['an empty header', ''],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a token of the wrong shape', 'Bearer sk-or-v1-1234'],
    ['an empty token', 'Bearer '],
    ['an unknown key', `Bearer sk-or-v1-${'a'.repeat(64)}`],
    ['an upper-case key', () => `Bearer ${workspace.managementKey.toUpperCase()}`],
    ['two tokens', () => `Bearer ${workspace.managementKey} ${workspace.managementKey}`],
  ])('answers 401 with WWW-Authenticate to %s', async (_name, header) => {
    const value = typeof header === 'function' ? header() : header;
    const response = await call(server, 'GET', path(), {
      headers: value === undefined ? {} : { authorization: value },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="api"/);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({ error: { code: 401, message: expect.any(String), metadata: null } });
  });

  it('answers 401 to a disabled key', async () => {
    const key = await provision.createKey(
      server.store,
      { workspaceId: workspace.id, name: 'Soon disabled', kind: 'management' },
      server.clock.now(),
    );
    expect((await call(server, 'GET', path(), { key: key.rawKey })).status).toBe(200);
    await server.store.keys.setDisabled(key.hash, true, server.clock.now());
    const response = await call(server, 'GET', path(), { key: key.rawKey });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('answers 401 to an expired key from the moment it expires', async () => {
    const key = await provision.createKey(
      server.store,
      { workspaceId: workspace.id, name: 'Expiring', kind: 'management', expiresAt: '2026-11-18T12:30:00.000Z' },
      server.clock.now(),
    );
    server.clock.set('2026-11-18T12:29:59.999Z');
    expect((await call(server, 'GET', path(), { key: key.rawKey })).status).toBe(200);
    server.clock.set('2026-11-18T12:30:00.000Z');
    expect((await call(server, 'GET', path(), { key: key.rawKey })).status).toBe(401);
  });

  it('accepts the scheme in any case and extra spaces before the token', async () => {
    for (const header of [`bearer ${workspace.managementKey}`, `BEARER  ${workspace.managementKey}`]) {
      expect((await call(server, 'GET', path(), { headers: { authorization: header } })).status).toBe(200);
    }
  });
});
