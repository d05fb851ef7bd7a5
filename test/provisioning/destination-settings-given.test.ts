// What createDestination hands the store: the settings given and no others, so that the store's own
// defaults fill the rest; and the filter rules with the defaults the spec gives them written out,
// by provisioning built here on the contract it is given.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { Provisioning } from '../../server/provisioning/provision.js';
import { loadSpec } from '../../server/spec.js';
import { openStore } from '../../server/store/store.js';
import { createTestDatabase } from '../support/database.js';
import { recordingStore } from '../support/recording-store.js';
import { destinationTypes, provision } from '../support/server.js';

const NOW = new Date('2026-11-18T12:00:00.000Z');
const WORKSPACE_ID = '0f3e9a1c-2b4d-4e6f-8a0b-1c2d3e4f5a6b';
const CONFIG = { url: 'https://hooks.example.com' };

describe('createDestination', () => {
  it('hands the store no setting that was not given, not even as undefined', async () => {
    const { store, given } = recordingStore();
    await provision.createDestination(store, { workspaceId: WORKSPACE_ID, type: 'webhook', config: CONFIG }, NOW);
    expect(given).toStrictEqual([
      { workspace_id: WORKSPACE_ID, type: 'webhook', name: null, config: CONFIG, filter_rules: null },
    ]);
  });

  it('hands the store each setting given, false included', async () => {
    const { store, given } = recordingStore();
    const settings = { enabled: false, privacy_mode: false, sampling_rate: 0.5, api_key_hashes: ['a'.repeat(64)] };
    await provision.createDestination(
      store,
      { workspaceId: WORKSPACE_ID, type: 'webhook', config: CONFIG, ...settings },
      NOW,
    );
    expect(given).toStrictEqual([
      { workspace_id: WORKSPACE_ID, type: 'webhook', name: null, config: CONFIG, ...settings, filter_rules: null },
    ]);
  });

  it('writes out the defaults the spec gives filter rules, with validators built from the contract it is given', async () => {
    const fresh = new Provisioning(loadSpec(), destinationTypes);
    const store = await openStore((await createTestDatabase()).url, createSecretBox(randomBytes(32)));
    try {
      const workspaceId = (await store.workspaces.create('Defaults', NOW)).id;
      const created = await fresh.createDestination(
        store,
        {
          workspaceId,
          type: 'webhook',
          config: CONFIG,
          filter_rules: { groups: [{ rules: [{ field: 'user_id', operator: 'exists' }] }] },
        },
        NOW,
      );
      expect(created.state.filter_rules).toEqual({
        enabled: true,
        groups: [{ logic: 'and', rules: [{ field: 'user_id', operator: 'exists' }] }],
      });
    } finally {
      await store.close();
    }
  });
});
