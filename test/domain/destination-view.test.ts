// A stored destination as the API shows it (server/domain/destination-view.ts).
import { describe, expect, it } from 'vitest';
import { configRulesOf, loadDestinationTypeRules } from '../../server/domain/destination-config-rules.js';
import type { StoredDestination } from '../../server/domain/destination-update.js';
import { toApiDestination } from '../../server/domain/destination-view.js';
import { loadSpec } from '../../server/spec.js';

const spec = loadSpec();
const rules = configRulesOf(loadDestinationTypeRules(spec), 'langfuse');

const stored: StoredDestination = {
  id: '7019b9f2-c5e6-4f46-873e-55a17bb095a3',
  workspace_id: '0f3e9a1c-2b4d-4e6f-8a0b-1c2d3e4f5a6b',
  type: 'langfuse',
  revision: 3,
  created_at: '2026-11-18T12:00:00.000Z',
  updated_at: '2026-11-19T08:30:00.000Z',
  state: {
    regions: ['global', 'us'],
    name: 'Traces',
    sampling_rate: 0.5,
    enabled: false,
    privacy_mode: true,
    api_key_hashes: ['cc11728ca6cd47497c5267117fcc2ebcfc3f3d9df55d54c191a4fdb06e178232'],
    filter_rules: null,
    broadcast_generation_cost: true,
    broadcast_generation_identity: false,
    broadcast_generation_request_context: true,
    config: { publicKey: 'pk-lf-0123456789abcdef0123456789abcdef', secretKey: 'short', baseUrl: 'https://x.test' },
  },
};

describe('a destination as the API shows it', () => {
  it("has every field of the contract, in the contract's order, whatever the order of the state", () => {
    const schema = spec.components?.schemas?.ObservabilityDestination as { properties: Record<string, unknown> };
    expect(Object.keys(toApiDestination(stored, rules))).toEqual(Object.keys(schema.properties));
  });

  it('shows the settings and regions as stored, and every secret of the config masked', () => {
    const { config, ...shown } = toApiDestination(stored, rules);
    const { config: _config, ...state } = stored.state;
    expect(shown).toEqual({
      id: stored.id,
      workspace_id: stored.workspace_id,
      type: 'langfuse',
      ...state,
      created_at: stored.created_at,
      updated_at: stored.updated_at,
    });
    expect(config).toEqual({ publicKey: 'pk-l...cdef', secretKey: '********', baseUrl: 'https://x.test' });
  });
});
