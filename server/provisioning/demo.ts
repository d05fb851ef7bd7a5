// The demo workspace: what `npm start` seeds into an empty database, and `cli seed --demo`.
import type { Store } from '../store/store.js';
import { type Provisioning, recordUsage } from './provision.js';

export interface DemoSeed {
  workspace_id: string;
  management_key: string;
  standard_key: string;
  /** Hash of the standard key. */
  key_hash: string;
  /** A langfuse destination. */
  destination_id: string;
  /** A preset with three versions. */
  preset_slug: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export async function seedDemo(store: Store, provisioning: Provisioning, now: Date): Promise<DemoSeed> {
  const workspace = await store.workspaces.create('Demo workspace', now);
  const management = await provisioning.createKey(
    store,
    { workspaceId: workspace.id, name: 'Demo management key', kind: 'management', creatorUserId: 'user_demo' },
    now,
  );
  const standard = await provisioning.createKey(
    store,
    {
      workspaceId: workspace.id,
      name: 'Demo backend',
      kind: 'standard',
      limit: 100,
      limitReset: 'monthly',
      creatorUserId: 'user_demo',
    },
    now,
  );
  for (const [daysAgo, amount, byok] of [
    [0, 1.25, false],
    [2, 3.5, false],
    [9, 7, false],
    [1, 0.75, true],
  ] as const) {
    await recordUsage(store, { keyHash: standard.hash, amount, byok, at: new Date(now.getTime() - daysAgo * DAY_MS) });
  }
  const destination = await provisioning.createDestination(
    store,
    {
      workspaceId: workspace.id,
      type: 'langfuse',
      name: 'Langfuse (demo)',
      config: {
        baseUrl: 'https://cloud.langfuse.com',
        publicKey: 'pk-lf-demo-1a2b3c4d5e6f',
        secretKey: 'sk-lf-demo-9f8e7d6c5b4a',
      },
    },
    now,
  );
  const slug = 'support-agent';
  const versions = [
    { config: { model: 'openai/gpt-4o-mini', temperature: 0.2 }, systemPrompt: 'You are a concise support agent.' },
    { config: { model: 'anthropic/claude-sonnet-4', temperature: 0.4 }, systemPrompt: null },
    {
      config: { model: 'anthropic/claude-sonnet-4', temperature: 0.3 },
      systemPrompt: 'You are a friendly, concise support agent.',
    },
  ];
  for (const version of versions) {
    await provisioning.addPresetVersion(
      store,
      { workspaceId: workspace.id, slug, creatorId: 'user_demo', ...version },
      now,
    );
  }
  return {
    workspace_id: workspace.id,
    management_key: management.rawKey,
    standard_key: standard.rawKey,
    key_hash: standard.hash,
    destination_id: destination.id,
    preset_slug: slug,
  };
}
