// The per-type config rules read from openapi.yaml (keys, secrets, field errors of a config), and
// the field errors of a destination update, with the message a caller reads.
import { describe, expect, it } from 'vitest';
import {
  type ConfigValues,
  configRulesOf,
  type DestinationType,
  loadDestinationTypeRules,
} from '../../server/domain/destination-config-rules.js';
import {
  type DestinationUpdateRequest,
  decideDestinationUpdate,
  type StoredDestination,
} from '../../server/domain/destination-update.js';
import { FieldValidationError } from '../../server/domain/field-errors.js';
import { loadSpec, type OpenApiDocument } from '../../server/spec.js';

const spec = loadSpec();
const rules = loadDestinationTypeRules(spec);

describe('config rules of a destination type', () => {
  it('knows the keys of a type, and which of them are secrets', () => {
    const langfuse = configRulesOf(rules, 'langfuse');
    expect(langfuse.type).toBe('langfuse');
    expect([...langfuse.keys]).toEqual(['publicKey', 'secretKey', 'baseUrl', 'headers']);
    expect([...langfuse.secretKeys]).toEqual(['publicKey', 'secretKey']);
  });

  it('takes a property marked secret in place as a secret, as well as one that refers to a secret schema', () => {
    const inline: OpenApiDocument = {
      ...spec,
      components: {
        ...spec.components,
        schemas: {
          ConfigSecret: { type: 'string', 'x-secret': true },
          PagerConfig: {
            type: 'object',
            'x-destination-type': 'pager',
            additionalProperties: false,
            properties: {
              routingKey: { type: 'string', 'x-secret': true },
              token: { $ref: '#/components/schemas/ConfigSecret' },
              service: { type: 'string', 'x-secret': false },
              region: { type: 'string' },
            },
          },
        },
      },
    };
    const pager = configRulesOf(loadDestinationTypeRules(inline), 'pager' as DestinationType);
    expect([...pager.keys]).toEqual(['routingKey', 'token', 'service', 'region']);
    expect([...pager.secretKeys]).toEqual(['routingKey', 'token']);
  });

  it('names a missing required key and an unknown key under the given prefix', () => {
    const langfuse = configRulesOf(rules, 'langfuse');
    expect(langfuse.validate({ publicKey: 'pk-lf-1234567890abcdEfGh', colour: 'red' }, '/config')).toEqual([
      { path: '/config/secretKey', message: "must have required property 'secretKey'" },
      { path: '/config/colour', message: 'must NOT have additional properties' },
    ]);
    expect(langfuse.validate({ publicKey: 'pk', secretKey: 'sk', headers: { 'X-Team': '' } }, '/config')).toEqual([]);
    expect(langfuse.validate({ publicKey: '', secretKey: 'sk' }, '/body/config')).toEqual([
      { path: '/body/config/publicKey', message: 'must NOT have fewer than 1 characters' },
    ]);
  });

  it('refuses a type the contract does not describe, naming it', () => {
    expect(() => configRulesOf(rules, 'carrier-pigeon' as DestinationType)).toThrow(
      new Error('openapi.yaml has no config schema for destination type carrier-pigeon'),
    );
  });
});

describe('the field errors of a destination update', () => {
  // Long enough for its mask to show its ends (tok_...cdef).
  const HEADER = 'tok_0123456789abcdef0123456789abcdef';
  const current: StoredDestination = {
    id: '7019b9f2-c5e6-4f46-873e-55a17bb095a3',
    workspace_id: '0f3e9a1c-2b4d-4e6f-8a0b-1c2d3e4f5a6b',
    type: 'webhook',
    revision: 4,
    created_at: '2026-11-18T12:00:00.000Z',
    updated_at: '2026-11-18T12:00:00.000Z',
    state: {
      name: 'Webhook',
      enabled: true,
      privacy_mode: false,
      sampling_rate: 1,
      api_key_hashes: null,
      filter_rules: null,
      broadcast_generation_cost: false,
      broadcast_generation_identity: false,
      broadcast_generation_request_context: false,
      regions: ['global'],
      config: { url: 'https://example.com/hook', headers: { 'X-Token': HEADER } },
    },
  };
  const decide = (changes: DestinationUpdateRequest['changes']) =>
    decideDestinationUpdate(current, { changes }, configRulesOf(rules, 'webhook'));
  const failureOf = (changes: DestinationUpdateRequest['changes']) => {
    try {
      decide(changes);
    } catch (err) {
      return err;
    }
    throw new Error('the update was accepted');
  };

  it('keeps a header sent back masked, and refuses a new header that looks masked, naming it', () => {
    const err = failureOf({ config: { headers: { 'X-Token': 'tok_...cdef', 'X-Trace': 'abc...' } } });
    expect(err).toBeInstanceOf(FieldValidationError);
    const message = 'looks like a masked value; send the full secret, or the value exactly as returned to keep it';
    expect((err as FieldValidationError).errors).toEqual([{ path: '/body/config/headers/X-Trace', message }]);
    expect((err as FieldValidationError).message).toBe(`/body/config/headers/X-Trace ${message}`);
    expect((err as FieldValidationError).name).toBe('FieldValidationError');
  });

  it('lists every broken rule in its message, separated by semicolons', () => {
    const err = failureOf({ config: { apiKey: 'k', headers: { 'X-Token': '********' } } });
    expect((err as FieldValidationError).message).toBe(
      '/body/config/apiKey is not a config key of a webhook destination; ' +
        '/body/config/headers/X-Token looks like a masked value; send the full secret, or the value exactly as returned to keep it',
    );
  });

  it('merges a new header value and a plain key into the config', () => {
    const config: ConfigValues = { url: 'https://example.com/other', headers: { 'X-Token': 'tok_fedcba9876543210' } };
    expect(
      decide({ config: { url: 'https://example.com/other', headers: { 'X-Token': 'tok_fedcba9876543210' } } }),
    ).toEqual({ outcome: 'changed', next: { ...current.state, config } });
  });

  it('takes a value that is no secret as it is, though it looks masked', () => {
    const config: ConfigValues = { ...current.state.config, url: 'https://example.com/a...b' };
    expect(decide({ config: { url: 'https://example.com/a...b' } })).toEqual({
      outcome: 'changed',
      next: { ...current.state, config },
    });
  });

  it('stores the regions each once, eu as europe, in the order global, europe, us', () => {
    expect(decide({ regions: ['us', 'eu', 'global'] })).toEqual({
      outcome: 'changed',
      next: { ...current.state, regions: ['global', 'europe', 'us'] },
    });
    expect(decide({ regions: ['global'] })).toEqual({ outcome: 'unchanged' });
  });

  it('takes eu and europe together as Europe once', () => {
    expect(decide({ regions: ['europe', 'us', 'eu'] })).toEqual({
      outcome: 'changed',
      next: { ...current.state, regions: ['europe', 'us'] },
    });
  });

  it('changes each broadcast flag alone, and a flag set to its value changes nothing', () => {
    for (const flag of [
      'broadcast_generation_cost',
      'broadcast_generation_identity',
      'broadcast_generation_request_context',
    ] as const) {
      expect(decide({ [flag]: true })).toEqual({ outcome: 'changed', next: { ...current.state, [flag]: true } });
      expect(decide({ [flag]: false })).toEqual({ outcome: 'unchanged' });
    }
  });
});
