// Provisioning (the CLI and the demo seed) checks its input against the schemas that the API
// answers with: the bounds come from openapi.yaml, not from constants of its own.
import { beforeAll, describe, expect, it } from 'vitest';
import { FieldValidationError } from '../../server/domain/field-errors.js';
import { MAX_CONFIG_JSON_LENGTH } from '../../server/domain/preset-versions.js';
import { Provisioning } from '../../server/provisioning/provision.js';
import { nodeAt, type OpenApiDocument } from '../../server/spec.js';
import type { Store } from '../../server/store/store.js';
import { destinationTypes, provision } from '../support/server.js';
import { spec } from '../support/spec.js';
import { useTestServer } from '../support/use-test-server.js';

const server = useTestServer();
let workspaceId: string;

beforeAll(async () => {
  workspaceId = (await server.store.workspaces.create('Provisioning', server.clock.now())).id;
});

async function fieldErrors(attempt: Promise<unknown>): Promise<{ path: string; message: string }[]> {
  const error = await attempt.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(FieldValidationError);
  return (error as FieldValidationError).errors;
}

const schemaOf = (name: string) =>
  spec.components.schemas[name] as { properties: Record<string, { maxLength?: number }> };

describe('provisioning', () => {
  it('bounds a key name by ApiKey.name of the spec, and its kind by KeyKind', async () => {
    const maxLength = schemaOf('ApiKey').properties.name?.maxLength ?? 0;
    const now = server.clock.now();
    await expect(
      provision.createKey(server.store, { workspaceId, name: 'n'.repeat(maxLength), kind: 'standard' }, now),
    ).resolves.toBeDefined();
    expect(
      await fieldErrors(
        provision.createKey(
          server.store,
          { workspaceId, name: 'n'.repeat(maxLength + 1), kind: 'admin' as 'standard' },
          now,
        ),
      ),
    ).toEqual([
      { path: '/name', message: `must NOT have more than ${maxLength} characters` },
      { path: '/kind', message: 'must be one of: management, standard' },
    ]);
  });

  it('pairs filter operators with their values as the API does, and writes the defaults out', async () => {
    const now = server.clock.now();
    const base = { workspaceId, type: 'webhook', name: 'Hook', config: { url: 'https://hooks.example.com' } };
    const wrongPair = provision.createDestination(
      server.store,
      {
        ...base,
        filter_rules: {
          groups: [{ rules: [{ field: 'total_cost', operator: 'gt', value: 'cheap' as unknown as number }] }],
        },
      },
      now,
    );
    expect(await fieldErrors(wrongPair)).toEqual([
      { path: '/filter_rules/groups/0/rules/0/value', message: 'must be number with operator gt' },
    ]);
    const created = await provision.createDestination(
      server.store,
      { ...base, filter_rules: { groups: [{ rules: [{ field: 'user_id', operator: 'exists' }] }] } },
      now,
    );
    expect(created.state.filter_rules).toEqual({
      enabled: true,
      groups: [{ logic: 'and', rules: [{ field: 'user_id', operator: 'exists' }] }],
    });
  });

  it('bounds a system prompt by PresetVersion.system_prompt, and keeps slugs URL-safe', async () => {
    const maxLength = schemaOf('PresetVersion').properties.system_prompt?.maxLength ?? 0;
    const version = { workspaceId, config: { model: 'openai/gpt-4o' }, creatorId: 'user_1' };
    const now = server.clock.now();
    expect(
      await fieldErrors(
        provision.addPresetVersion(
          server.store,
          { ...version, slug: 'ok', systemPrompt: 'p'.repeat(maxLength + 1) },
          now,
        ),
      ),
    ).toEqual([{ path: '/system_prompt', message: `must NOT have more than ${maxLength} characters` }]);
    expect(
      (await fieldErrors(provision.addPresetVersion(server.store, { ...version, slug: 'Not a slug' }, now))).map(
        (e) => e.path,
      ),
    ).toEqual(['/slug']);
  });

  it('bounds a config by the length of its JSON, as PresetConfig says', async () => {
    expect(nodeAt(spec, '#/components/schemas/PresetConfig/description')).toContain(
      `at most ${MAX_CONFIG_JSON_LENGTH.toLocaleString('en')} characters`,
    );
    const version = { workspaceId, slug: 'sized', creatorId: 'user_1' };
    const notes = (length: number) => 'n'.repeat(length - JSON.stringify({ notes: '' }).length);
    const now = server.clock.now();
    await provision.addPresetVersion(
      server.store,
      { ...version, config: { notes: notes(MAX_CONFIG_JSON_LENGTH) } },
      now,
    );
    expect(
      await fieldErrors(
        provision.addPresetVersion(
          server.store,
          { ...version, config: { notes: notes(MAX_CONFIG_JSON_LENGTH + 1) } },
          now,
        ),
      ),
    ).toEqual([{ path: '/config', message: `must be at most ${MAX_CONFIG_JSON_LENGTH} characters written as JSON` }]);
  });
});

describe('a Provisioning', () => {
  it('checks a destination against the destination types it is given, not the whole contract', async () => {
    const webhookOnly = new Map([...destinationTypes].filter(([type]) => type === 'webhook'));
    const provisioning = new Provisioning(spec, webhookOnly);
    const attempt = provisioning.createDestination(
      {} as Store,
      { workspaceId: 'w', type: 'langfuse', config: {} },
      new Date(),
    );
    await expect(attempt).rejects.toMatchObject({ errors: [{ path: '/type', message: 'must be one of: webhook' }] });
  });

  it('reads its contract when first used, so that building one for a command that provisions nothing costs nothing', async () => {
    const unreadable = { openapi: '3.1.0', info: { title: 'none', version: '0' } } as OpenApiDocument;
    const provisioning = new Provisioning(unreadable);
    const store = {} as Store;
    await expect(
      provisioning.createKey(store, { workspaceId: 'w', name: 'n', kind: 'standard' }, new Date()),
    ).rejects.toThrow();
  });
});
