// A destination's fields to their columns and back (server/store/destination-columns.ts), as
// both databases read them: SQLite's booleans come back as 0 and 1.
import { describe, expect, it } from 'vitest';
import type { DestinationState } from '../../server/domain/destination-update.js';
import { readColumnFields, writeColumnFields } from '../../server/store/destination-columns.js';

const state: DestinationState = {
  name: null,
  enabled: true,
  privacy_mode: false,
  sampling_rate: 0.25,
  api_key_hashes: ['cc11728ca6cd47497c5267117fcc2ebcfc3f3d9df55d54c191a4fdb06e178232'],
  filter_rules: { enabled: true, groups: [] },
  broadcast_generation_cost: false,
  broadcast_generation_identity: true,
  broadcast_generation_request_context: false,
  regions: ['europe'],
  config: { url: 'https://example.com/hook' },
};

describe('the columns of a destination', () => {
  it('writes each field but the config to its column: booleans as they are, lists and rules as JSON', () => {
    expect(writeColumnFields(state)).toEqual({
      name: null,
      enabled: true,
      privacy_mode: false,
      sampling_rate: 0.25,
      api_key_hashes: '["cc11728ca6cd47497c5267117fcc2ebcfc3f3d9df55d54c191a4fdb06e178232"]',
      filter_rules: '{"enabled":true,"groups":[]}',
      broadcast_generation_cost: false,
      broadcast_generation_identity: true,
      broadcast_generation_request_context: false,
      regions: '["europe"]',
    });
    expect(writeColumnFields({ ...state, api_key_hashes: null, filter_rules: null })).toMatchObject({
      api_key_hashes: null,
      filter_rules: null,
    });
  });

  it('reads back what it wrote, booleans from 0 and 1 as well, in the order of the state', () => {
    const { config: _config, ...fields } = state;
    const written = writeColumnFields(state);
    expect(readColumnFields({ ...written, ...rowIdentity })).toEqual(fields);
    const sqlite = { ...written, ...rowIdentity, enabled: 1, privacy_mode: 0, broadcast_generation_identity: 1 };
    expect(readColumnFields(sqlite)).toEqual(fields);
    expect(Object.keys(readColumnFields(sqlite))).toEqual(Object.keys(fields));
  });
});

const rowIdentity = {
  id: '7019b9f2-c5e6-4f46-873e-55a17bb095a3',
  workspace_id: '0f3e9a1c-2b4d-4e6f-8a0b-1c2d3e4f5a6b',
  type: 'webhook',
  config_sealed: 'sealed',
  revision: 1,
  created_at: '2026-11-18T12:00:00.000Z',
  updated_at: '2026-11-18T12:00:00.000Z',
};
