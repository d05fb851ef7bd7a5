// What provisioning creates, called in-process on an in-memory store: the keys, destinations,
// preset versions and usage records it stores and returns, the defaults it writes out, and the
// errors it gives for input the API could not return.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../server/domain/api-keys.js';
import { FieldValidationError } from '../../server/domain/field-errors.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { usageWindows } from '../../server/domain/time.js';
import { recordUsage } from '../../server/provisioning/provision.js';
import { openStore, type Store } from '../../server/store/store.js';
import { createTestDatabase } from '../support/database.js';
import { readDestination } from '../support/destinations.js';
import { NO_USAGE, provision } from '../support/server.js';

// Wednesday 18 November 2026: the week began on Monday the 16th.
const NOW = new Date('2026-11-18T12:00:00.000Z');

let store: Store;
let workspaceId: string;

beforeEach(async () => {
  store = await openStore((await createTestDatabase()).url, createSecretBox(randomBytes(32)));
  workspaceId = (await store.workspaces.create('Provisioning', NOW)).id;
});

afterEach(async () => {
  await store.close();
});

async function refusal(attempt: Promise<unknown>): Promise<unknown> {
  const error = await attempt.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(Error);
  return error instanceof FieldValidationError ? error.errors : (error as Error).message;
}

const storedKey = (hash: string) => store.keys.findInWorkspaceWithUsage(workspaceId, hash, usageWindows(NOW));

describe('createKey', () => {
  it('stores every field given, and returns the raw key once with its hash, id and expiry', async () => {
    const created = await provision.createKey(
      store,
      {
        workspaceId,
        name: 'Production backend',
        kind: 'standard',
        limit: 25.5,
        limitReset: 'weekly',
        includeByokInLimit: true,
        disabled: true,
        expiresAt: '2027-01-01T00:00:00+01:00',
        creatorUserId: 'user_42',
        externalUser: 'customer_4812',
      },
      NOW,
    );
    expect(created.rawKey).toMatch(/^sk-or-v1-[0-9a-f]{64}$/);
    expect(created.hash).toBe(hashApiKey(created.rawKey));
    expect(created.expiresAt).toBe('2026-12-31T23:00:00.000Z');
    expect(await store.keys.findByHash(created.hash)).toEqual({
      id: created.id,
      workspace_id: workspaceId,
      kind: 'standard',
      disabled: true,
      expires_at: '2026-12-31T23:00:00.000Z',
    });
    expect(await storedKey(created.hash)).toEqual({
      hash: created.hash,
      name: 'Production backend',
      label: `${created.rawKey.slice(0, 12)}...${created.rawKey.slice(-4)}`,
      disabled: true,
      limit: 25.5,
      limit_reset: 'weekly',
      include_byok_in_limit: true,
      ...NO_USAGE,
      created_at: '2026-11-18T12:00:00.000Z',
      updated_at: null,
      expires_at: '2026-12-31T23:00:00.000Z',
      creator_user_id: 'user_42',
      external_user: 'customer_4812',
      workspace_id: workspaceId,
    });
  });

  it('stores a key without options as enabled, unlimited, never expiring and of no creator', async () => {
    const created = await provision.createKey(store, { workspaceId, name: 'Admin', kind: 'management' }, NOW);
    expect(await store.keys.findByHash(created.hash)).toEqual({
      id: created.id,
      workspace_id: workspaceId,
      kind: 'management',
      disabled: false,
      expires_at: null,
    });
    expect(await storedKey(created.hash)).toMatchObject({
      limit: null,
      limit_reset: null,
      include_byok_in_limit: false,
      disabled: false,
      expires_at: null,
      creator_user_id: null,
      external_user: null,
    });
  });

  it('names every field that breaks its ApiKey schema, in one error', async () => {
    const attempt = provision.createKey(
      store,
      {
        workspaceId,
        name: '',
        kind: 'standard',
        limit: -1,
        limitReset: 'yearly' as 'daily',
        expiresAt: 'next week',
        creatorUserId: '',
      },
      NOW,
    );
    expect(await refusal(attempt)).toEqual([
      { path: '/name', message: 'must NOT have fewer than 1 characters' },
      { path: '/limit', message: 'must be >= 0' },
      { path: '/limit_reset', message: 'must be one of: daily, weekly, monthly, null' },
      { path: '/expires_at', message: 'must match format "date-time"' },
      { path: '/creator_user_id', message: 'must NOT have fewer than 1 characters' },
    ]);
  });

  it('refuses a key for a workspace that does not exist', async () => {
    const attempt = provision.createKey(
      store,
      { workspaceId: 'no-such-workspace', name: 'Orphan', kind: 'standard' },
      NOW,
    );
    expect(await refusal(attempt)).toBe('FOREIGN KEY constraint failed');
  });
});

describe('createDestination', () => {
  const langfuse = { publicKey: 'pk-lf-1a2b3c4d5e6f', secretKey: 'sk-lf-9f8e7d6c5b4a' };

  it('writes out the defaults of every setting not given', async () => {
    const created = await provision.createDestination(store, { workspaceId, type: 'langfuse', config: langfuse }, NOW);
    const expected = {
      id: created.id,
      workspace_id: workspaceId,
      type: 'langfuse',
      revision: 1,
      created_at: '2026-11-18T12:00:00.000Z',
      updated_at: '2026-11-18T12:00:00.000Z',
      state: {
        name: null,
        enabled: true,
        privacy_mode: false,
        sampling_rate: 1,
        api_key_hashes: null,
        filter_rules: null,
        broadcast_generation_cost: false,
        broadcast_generation_identity: false,
        broadcast_generation_request_context: false,
        regions: ['global'],
        config: langfuse,
      },
    };
    expect(created).toEqual(expected);
    expect(await readDestination(store, workspaceId, created.id)).toEqual(expected);
  });

  it('stores every setting given', async () => {
    const created = await provision.createDestination(
      store,
      {
        workspaceId,
        type: 'webhook',
        name: 'Hook',
        config: { url: 'https://hooks.example.com', headers: { 'X-Token': 'token-1234567890' } },
        enabled: false,
        privacy_mode: true,
        sampling_rate: 0.25,
        api_key_hashes: ['a'.repeat(64)],
        broadcast_generation_cost: true,
        broadcast_generation_identity: true,
        broadcast_generation_request_context: true,
        regions: ['us', 'eu'],
      },
      NOW,
    );
    expect((await readDestination(store, workspaceId, created.id))?.state).toEqual({
      name: 'Hook',
      enabled: false,
      privacy_mode: true,
      sampling_rate: 0.25,
      api_key_hashes: ['a'.repeat(64)],
      filter_rules: null,
      broadcast_generation_cost: true,
      broadcast_generation_identity: true,
      broadcast_generation_request_context: true,
      regions: ['europe', 'us'],
      config: { url: 'https://hooks.example.com', headers: { 'X-Token': 'token-1234567890' } },
    });
  });

  it('refuses a type the spec has no config schema for, listing the types it has', async () => {
    const attempt = provision.createDestination(store, { workspaceId, type: 'splunk', config: {} }, NOW);
    expect(await refusal(attempt)).toEqual([
      {
        path: '/type',
        message:
          'must be one of: arize, braintrust, clickhouse, datadog, grafana, langfuse, langsmith, ' +
          'newrelic, opik, otel-collector, posthog, ramp, s3, sentry, snowflake, weave, webhook',
      },
    ]);
  });

  it('names each setting and config key that breaks its schema, config keys under /config', async () => {
    const attempt = provision.createDestination(
      store,
      {
        workspaceId,
        type: 'langfuse',
        name: '',
        sampling_rate: 0,
        api_key_hashes: [],
        config: { publicKey: 'pk-lf-1a2b3c4d5e6f', host: 'https://cloud.langfuse.com' },
      },
      NOW,
    );
    expect(await refusal(attempt)).toEqual([
      { path: '/name', message: 'must NOT have fewer than 1 characters' },
      { path: '/sampling_rate', message: 'must be >= 0.0001' },
      { path: '/api_key_hashes', message: 'must NOT have fewer than 1 items' },
      { path: '/config/secretKey', message: "must have required property 'secretKey'" },
      { path: '/config/host', message: 'must NOT have additional properties' },
    ]);
  });

  it('refuses a secret or a header value that looks masked, as one would copy it from a response', async () => {
    const attempt = provision.createDestination(
      store,
      {
        workspaceId,
        type: 'langfuse',
        config: { ...langfuse, secretKey: 'sk-l...4b5a', headers: { 'X-Env': 'prod', 'X-Token': '********' } },
      },
      NOW,
    );
    expect(await refusal(attempt)).toEqual([
      { path: '/config/secretKey', message: 'looks like a masked value; give the full secret' },
      { path: '/config/headers', message: 'looks like a masked value; give the full secret' },
    ]);
  });

  it('takes a value that looks masked in a config key that is not a secret', async () => {
    const config = { ...langfuse, baseUrl: 'https://cloud...langfuse.com' };
    const created = await provision.createDestination(store, { workspaceId, type: 'langfuse', config }, NOW);
    expect(created.state.config).toEqual(config);
  });

  it('reports a config value of the wrong type by its schema alone, not as a masked secret', async () => {
    const attempt = provision.createDestination(
      store,
      {
        workspaceId,
        type: 'langfuse',
        config: { publicKey: 'pk-lf-1a2b3c4d5e6f', secretKey: { value: '****' }, headers: '****' },
      },
      NOW,
    );
    expect(await refusal(attempt)).toEqual([
      { path: '/config/secretKey', message: 'must be string' },
      { path: '/config/headers', message: 'must be object' },
    ]);
  });
});

describe('addPresetVersion', () => {
  const config = { model: 'openai/gpt-4o-mini', temperature: 0.2 };

  it('numbers the versions of a slug from 1, and stores each as returned', async () => {
    const first = await provision.addPresetVersion(
      store,
      { workspaceId, slug: 'support_agent-2', config, systemPrompt: 'Be brief.', creatorId: 'user_1' },
      NOW,
    );
    const second = await provision.addPresetVersion(
      store,
      { workspaceId, slug: 'support_agent-2', config: { model: 'x/y', seed: 7 }, creatorId: 'user_2' },
      new Date('2026-11-19T08:00:00.000Z'),
    );
    expect(first).toEqual({
      id: first.id,
      preset_id: first.preset_id,
      version: 1,
      config,
      system_prompt: 'Be brief.',
      creator_id: 'user_1',
      created_at: '2026-11-18T12:00:00.000Z',
      updated_at: '2026-11-18T12:00:00.000Z',
    });
    expect(second).toEqual({
      id: second.id,
      preset_id: first.preset_id,
      version: 2,
      config: { model: 'x/y', seed: 7 },
      system_prompt: null,
      creator_id: 'user_2',
      created_at: '2026-11-19T08:00:00.000Z',
      updated_at: '2026-11-19T08:00:00.000Z',
    });
    expect(await store.presets.findBySlug(workspaceId, 'support_agent-2')).toEqual({
      id: first.preset_id,
      slug: 'support_agent-2',
      version_count: 2,
    });
    const page = await store.presets.pageOfVersions(workspaceId, 'support_agent-2', 0, 10);
    expect(JSON.parse(page?.versionsJson ?? '[]')).toEqual([first, second]);
  });

  it.each(['a', 'support-agent', 'v2_final', 'gpt-4o-mini_eu'])('takes the URL-safe slug %s', async (slug) => {
    const version = await provision.addPresetVersion(store, { workspaceId, slug, config, creatorId: 'user_1' }, NOW);
    expect(await store.presets.findBySlug(workspaceId, slug)).toEqual({
      id: version.preset_id,
      slug,
      version_count: 1,
    });
  });

  it.each(['Support', 'support agent', 'support-', '-support', 'support--agent', 'support_-agent', 'support/agent'])(
    'refuses the slug %j, saying what a slug may hold',
    async (slug) => {
      expect(
        await refusal(provision.addPresetVersion(store, { workspaceId, slug, config, creatorId: 'user_1' }, NOW)),
      ).toEqual([
        { path: '/slug', message: 'must be URL-safe: lower-case letters and digits, in words joined by - or _' },
      ]);
      expect(await store.presets.findBySlug(workspaceId, slug)).toBeUndefined();
    },
  );

  it('bounds a slug by the slug parameter of listPresetVersions', async () => {
    const slug = 'a'.repeat(200);
    await provision.addPresetVersion(store, { workspaceId, slug, config, creatorId: 'user_1' }, NOW);
    expect(
      await refusal(
        provision.addPresetVersion(store, { workspaceId, slug: `${slug}a`, config, creatorId: 'user_1' }, NOW),
      ),
    ).toEqual([{ path: '/slug', message: 'must NOT have more than 200 characters' }]);
  });

  it('names a config and a creator that break the PresetVersion schema', async () => {
    const attempt = provision.addPresetVersion(
      store,
      { workspaceId, slug: 'ok', config: { model: '', temperature: 'warm' as unknown as number }, creatorId: '' },
      NOW,
    );
    expect(await refusal(attempt)).toEqual([
      { path: '/config/model', message: 'must NOT have fewer than 1 characters' },
      { path: '/config/temperature', message: 'must be number' },
      { path: '/creator_id', message: 'must NOT have fewer than 1 characters' },
    ]);
  });
});

describe('recordUsage', () => {
  it('adds usage to the key, BYOK usage apart, in the windows of the day it happened', async () => {
    const { hash } = await provision.createKey(store, { workspaceId, name: 'Backend', kind: 'standard' }, NOW);
    await recordUsage(store, { keyHash: hash, amount: 1.5, byok: false, at: NOW });
    await recordUsage(store, { keyHash: hash, amount: 0, byok: false, at: NOW });
    await recordUsage(store, { keyHash: hash, amount: 2, byok: false, at: new Date('2026-11-16T00:00:00.000Z') });
    await recordUsage(store, { keyHash: hash, amount: 0.25, byok: true, at: new Date('2026-11-02T10:00:00.000Z') });
    expect(await storedKey(hash)).toMatchObject({
      usage: 3.5,
      usage_daily: 1.5,
      usage_weekly: 3.5,
      usage_monthly: 3.5,
      byok_usage: 0.25,
      byok_usage_daily: 0,
      byok_usage_weekly: 0,
      byok_usage_monthly: 0.25,
    });
  });

  it.each([-0.01, Number.NaN, Number.POSITIVE_INFINITY])('refuses the amount %d, recording nothing', async (amount) => {
    const { hash } = await provision.createKey(store, { workspaceId, name: 'Backend', kind: 'standard' }, NOW);
    expect(await refusal(recordUsage(store, { keyHash: hash, amount, byok: false, at: NOW }))).toEqual([
      { path: '/amount', message: 'must be a finite number >= 0' },
    ]);
    expect(await storedKey(hash)).toMatchObject({ usage: 0, byok_usage: 0 });
  });

  it('refuses usage of a key that does not exist', async () => {
    expect(await refusal(recordUsage(store, { keyHash: 'f'.repeat(64), amount: 1, byok: false, at: NOW }))).toBe(
      `no key with hash ${'f'.repeat(64)}`,
    );
  });
});
