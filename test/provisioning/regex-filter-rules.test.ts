// Provisioning keeps the rule of the API on a `regex` filter rule's pattern (openapi.yaml,
// RegexFilterRule): a destination whose pattern a search would run through in more than linear
// time is refused, naming the field, and never reaches the store.
import { describe, expect, it } from 'vitest';
import { FieldValidationError } from '../../server/domain/field-errors.js';
import { recordingStore } from '../support/recording-store.js';
import { provision } from '../support/server.js';

const NOW = new Date('2026-11-18T12:00:00.000Z');
const WORKSPACE_ID = '0f3e9a1c-2b4d-4e6f-8a0b-1c2d3e4f5a6b';

const withPattern = (value: string) => ({
  workspaceId: WORKSPACE_ID,
  type: 'webhook',
  config: { url: 'https://hooks.example.com' },
  filter_rules: { groups: [{ rules: [{ field: 'model' as const, operator: 'regex' as const, value }] }] },
});

describe('createDestination', () => {
  it('refuses a catastrophic pattern, naming its field, and stores nothing', async () => {
    const { store, given } = recordingStore();
    const refused = provision.createDestination(store, withPattern('(a+)+$'), NOW);
    await expect(refused).rejects.toBeInstanceOf(FieldValidationError);
    await expect(refused).rejects.toMatchObject({
      errors: [{ path: '/filter_rules/groups/0/rules/0/value', message: expect.stringMatching(/exponential/) }],
    });
    expect(given).toEqual([]);
  });

  it('stores a linear pattern', async () => {
    const { store, given } = recordingStore();
    await provision.createDestination(store, withPattern('^openai/gpt-4'), NOW);
    expect(given).toHaveLength(1);
  });
});
