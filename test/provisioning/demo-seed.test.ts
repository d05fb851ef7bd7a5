// The demo seed, run in-process on an empty in-memory store: the workspace, keys, usage,
// destination and preset versions it creates, and what it returns to name them. Each test seeds a
// store of its own before it runs: a seed that throws fails the test, rather than the file's setup
// alone, which fails no test.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../server/domain/api-keys.js';
import type { PresetVersion } from '../../server/domain/preset-versions.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { usageWindows } from '../../server/domain/time.js';
import { type DemoSeed, seedDemo } from '../../server/provisioning/demo.js';
import { openStore, type Store } from '../../server/store/store.js';
import { createTestDatabase } from '../support/database.js';
import { readDestination } from '../support/destinations.js';
import { NO_USAGE, provision } from '../support/server.js';

// Wednesday 18 November 2026: the week began on Monday the 16th, the month on the 1st.
const NOW = new Date('2026-11-18T12:00:00.000Z');
const CREATED_AT = '2026-11-18T12:00:00.000Z';

let store: Store;
let seed: DemoSeed;

beforeEach(async () => {
  store = await openStore((await createTestDatabase()).url, createSecretBox(randomBytes(32)));
  seed = await seedDemo(store, provision, NOW);
});

afterEach(async () => {
  await store.close();
});

const label = (rawKey: string) => `${rawKey.slice(0, 12)}...${rawKey.slice(-4)}`;

describe('the demo seed', () => {
  it('creates one workspace, named as the demo, and returns the names of what it put in it', async () => {
    expect(await store.workspaces.list()).toEqual([
      { id: seed.workspace_id, name: 'Demo workspace', created_at: CREATED_AT },
    ]);
    expect(seed).toEqual({
      workspace_id: seed.workspace_id,
      management_key: seed.management_key,
      standard_key: seed.standard_key,
      key_hash: hashApiKey(seed.standard_key),
      destination_id: seed.destination_id,
      preset_slug: 'support-agent',
    });
  });

  it('creates a management key without limit, by the demo user', async () => {
    const hash = hashApiKey(seed.management_key);
    expect((await store.keys.findByHash(hash))?.kind).toBe('management');
    expect(await store.keys.findInWorkspaceWithUsage(seed.workspace_id, hash, usageWindows(NOW))).toEqual({
      hash,
      name: 'Demo management key',
      label: label(seed.management_key),
      disabled: false,
      limit: null,
      limit_reset: null,
      include_byok_in_limit: false,
      ...NO_USAGE,
      created_at: CREATED_AT,
      updated_at: null,
      expires_at: null,
      creator_user_id: 'user_demo',
      external_user: null,
      workspace_id: seed.workspace_id,
    });
  });

  it('creates a standard key with a monthly limit and usage spread over today, this week and this month', async () => {
    expect((await store.keys.findByHash(seed.key_hash))?.kind).toBe('standard');
    expect(await store.keys.findInWorkspaceWithUsage(seed.workspace_id, seed.key_hash, usageWindows(NOW))).toEqual({
      hash: seed.key_hash,
      name: 'Demo backend',
      label: label(seed.standard_key),
      disabled: false,
      limit: 100,
      limit_reset: 'monthly',
      include_byok_in_limit: false,
      // 1.25 today, 3.5 two days ago (Monday), 7 nine days ago; 0.75 BYOK yesterday.
      usage: 11.75,
      usage_daily: 1.25,
      usage_weekly: 4.75,
      usage_monthly: 11.75,
      byok_usage: 0.75,
      byok_usage_daily: 0,
      byok_usage_weekly: 0.75,
      byok_usage_monthly: 0.75,
      created_at: CREATED_AT,
      updated_at: null,
      expires_at: null,
      creator_user_id: 'user_demo',
      external_user: null,
      workspace_id: seed.workspace_id,
    });
  });

  it('creates a langfuse destination with the settings of a new destination', async () => {
    expect(await readDestination(store, seed.workspace_id, seed.destination_id)).toEqual({
      id: seed.destination_id,
      workspace_id: seed.workspace_id,
      type: 'langfuse',
      revision: 1,
      created_at: CREATED_AT,
      updated_at: CREATED_AT,
      state: {
        name: 'Langfuse (demo)',
        enabled: true,
        privacy_mode: false,
        sampling_rate: 1,
        api_key_hashes: null,
        filter_rules: null,
        broadcast_generation_cost: false,
        broadcast_generation_identity: false,
        broadcast_generation_request_context: false,
        regions: ['global'],
        config: {
          baseUrl: 'https://cloud.langfuse.com',
          publicKey: 'pk-lf-demo-1a2b3c4d5e6f',
          secretKey: 'sk-lf-demo-9f8e7d6c5b4a',
        },
      },
    });
  });

  it('creates a preset with three versions, in order', async () => {
    const preset = await store.presets.findBySlug(seed.workspace_id, seed.preset_slug);
    expect(preset).toEqual({ id: preset?.id, slug: 'support-agent', version_count: 3 });
    const page = await store.presets.pageOfVersions(seed.workspace_id, seed.preset_slug, 0, 10);
    const versions = JSON.parse(page?.versionsJson ?? '[]') as PresetVersion[];
    expect(versions.map(({ id: _id, preset_id: _presetId, ...version }) => version)).toEqual([
      {
        version: 1,
        config: { model: 'openai/gpt-4o-mini', temperature: 0.2 },
        system_prompt: 'You are a concise support agent.',
        creator_id: 'user_demo',
        created_at: CREATED_AT,
        updated_at: CREATED_AT,
      },
      {
        version: 2,
        config: { model: 'anthropic/claude-sonnet-4', temperature: 0.4 },
        system_prompt: null,
        creator_id: 'user_demo',
        created_at: CREATED_AT,
        updated_at: CREATED_AT,
      },
      {
        version: 3,
        config: { model: 'anthropic/claude-sonnet-4', temperature: 0.3 },
        system_prompt: 'You are a friendly, concise support agent.',
        creator_id: 'user_demo',
        created_at: CREATED_AT,
        updated_at: CREATED_AT,
      },
    ]);
  });
});
