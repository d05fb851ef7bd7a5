import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ConfigValues } from '../../server/domain/destination-config-rules.js';
import type { NewDestinationInput } from '../../server/provisioning/provision.js';
import { escapePointer, nodeAt, specOperations } from '../../server/spec.js';
import { boundaryCases } from '../support/boundaries.js';
import { rawRows, testDatabaseKind } from '../support/database.js';
import { readDestination } from '../support/destinations.js';
import { call, provision } from '../support/server.js';
import { requestBodySchema, resolveRef, spec } from '../support/spec.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'destinations-test-'));

const PUBLIC_KEY = 'pk-lf-1234567890abcdef-1234567890abcdEfGh';
const SECRET_KEY = 'sk-lf-0b7e2f4c9a1d4e6b8c3f5a7d9e1b2c4d';
const LANGFUSE_CONFIG = { baseUrl: 'https://cloud.langfuse.com', publicKey: PUBLIC_KEY, secretKey: SECRET_KEY };
const START = '2026-11-18T12:00:00.000Z';

// On SQLite, a database file, so that a test can read what is really at rest.
const server = useTestServer({
  now: START,
  ...(testDatabaseKind === 'sqlite' && { databaseUrl: `sqlite:${join(dataDir, 'api.db')}` }),
});
const workspace = useWorkspace(server);
const otherWorkspace = useWorkspace(server, 'Other workspace');

// Tests that move the clock leave it to this: a failing one cannot shift the time of the next.
afterEach(() => {
  server.clock.set(START);
});

afterAll(() => {
  expect(server.serverErrors()).toEqual([]);
});

async function newDestination(input: Partial<NewDestinationInput> = {}) {
  return provision.createDestination(
    server.store,
    { workspaceId: workspace.id, type: 'langfuse', name: 'Langfuse', config: { ...LANGFUSE_CONFIG }, ...input },
    server.clock.now(),
  );
}

const patch = (id: string, body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
  call(server, 'PATCH', `/api/v1/observability/destinations/${id}`, {
    key: options.key ?? workspace.managementKey,
    body,
    headers: options.headers,
  });

interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, object>;
  items?: object;
  additionalProperties?: boolean | object;
  oneOf?: object[];
  anyOf?: object[];
  allOf?: object[];
}

const requestBodyPointer = (template: string, method: string) =>
  `#/paths/${escapePointer(template)}/${method}/requestBody/content/application~1json/schema`;

/**
 * Where a body that `schema` takes may hold a number, as paths from `at` (`*` for any item or
 * key): a schema of type number or integer, or one that takes any value (no type, or the
 * properties of an object that does not close them).
 */
function numericFieldsOf(schema: unknown, at: string, within: ReadonlySet<unknown> = new Set()): string[] {
  const node = resolveRef(schema as object) as SchemaNode;
  if (within.has(node)) return [];
  const inner = new Set(within).add(node);
  const types = node.type === undefined ? [] : [node.type].flat();
  const composed = [...(node.oneOf ?? []), ...(node.anyOf ?? []), ...(node.allOf ?? [])];
  const takesAnything = types.length === 0 && composed.length === 0 && !('const' in node) && !('enum' in node);
  const extra = node.additionalProperties;
  const fields = [
    ...(takesAnything || types.includes('number') || types.includes('integer') ? [at] : []),
    ...Object.entries(node.properties ?? {}).flatMap(([name, p]) => numericFieldsOf(p, `${at}/${name}`, inner)),
    ...(node.items ? numericFieldsOf(node.items, `${at}/*`, inner) : []),
    ...(types.includes('object') && extra !== false
      ? numericFieldsOf(extra === true ? {} : (extra ?? {}), `${at}/*`, inner)
      : []),
    ...composed.flatMap((s) => numericFieldsOf(s, at, inner)),
  ];
  return [...new Set(fields)].sort();
}

async function stored(id: string) {
  const destination = await readDestination(server.store, workspace.id, id);
  if (!destination) throw new Error('destination vanished');
  return destination;
}

describe('updateObservabilityDestination', () => {
  it('changes the fields given and returns the whole destination', async () => {
    const destination = await newDestination();
    server.clock.set('2026-11-18T13:00:00.000Z');
    const response = await patch(destination.id, {
      name: 'Renamed',
      enabled: false,
      privacy_mode: true,
      sampling_rate: 0.25,
      api_key_hashes: [workspace.standardKeyHash],
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      id: destination.id,
      workspace_id: workspace.id,
      name: 'Renamed',
      type: 'langfuse',
      enabled: false,
      privacy_mode: true,
      sampling_rate: 0.25,
      api_key_hashes: [workspace.standardKeyHash],
      filter_rules: null,
      broadcast_generation_cost: false,
      broadcast_generation_identity: false,
      broadcast_generation_request_context: false,
      regions: ['global'],
      config: { baseUrl: 'https://cloud.langfuse.com', publicKey: 'pk-l...EfGh', secretKey: 'sk-l...2c4d' },
      created_at: '2026-11-18T12:00:00.000Z',
      updated_at: '2026-11-18T13:00:00.000Z',
    });
  });

  it('keeps every field that is omitted', async () => {
    const destination = await newDestination({
      privacy_mode: true,
      sampling_rate: 0.5,
      api_key_hashes: ['abc'],
      filter_rules: { groups: [] },
    });
    const response = await patch(destination.id, { enabled: false });
    expect(response.body.data).toMatchObject({
      name: 'Langfuse',
      enabled: false,
      privacy_mode: true,
      sampling_rate: 0.5,
      api_key_hashes: ['abc'],
      filter_rules: { enabled: true, groups: [] },
    });
    expect((await stored(destination.id)).state.config).toEqual(LANGFUSE_CONFIG);
  });

  it('clears api_key_hashes and filter_rules with null', async () => {
    const destination = await newDestination({
      api_key_hashes: ['abc'],
      filter_rules: { groups: [{ rules: [{ field: 'model', operator: 'exists' }] }] },
    });
    const response = await patch(destination.id, { api_key_hashes: null, filter_rules: null });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ api_key_hashes: null, filter_rules: null });
  });

  it('shows a destination without a name as name: null', async () => {
    const destination = await newDestination({ name: null });
    expect((await patch(destination.id, {})).body.data.name).toBeNull();
  });

  describe('broadcast flags and regions', () => {
    const FLAGS = [
      'broadcast_generation_cost',
      'broadcast_generation_identity',
      'broadcast_generation_request_context',
    ] as const;

    it('sets each broadcast flag, keeps the others, and turns it off again', async () => {
      const destination = await newDestination();
      for (const flag of FLAGS) {
        const on = await patch(destination.id, { [flag]: true });
        expect(on.status).toBe(200);
        expect(on.body.data[flag]).toBe(true);
        const off = await patch(destination.id, { [flag]: false });
        expect(off.body.data[flag]).toBe(false);
      }
      const all = await patch(destination.id, Object.fromEntries(FLAGS.map((flag) => [flag, true])));
      expect(all.body.data).toMatchObject(Object.fromEntries(FLAGS.map((flag) => [flag, true])));
      expect((await patch(destination.id, { enabled: false })).body.data).toMatchObject({
        enabled: false,
        ...Object.fromEntries(FLAGS.map((flag) => [flag, true])),
      });
    });

    it('replaces the regions, stores eu as europe, each once in the order global, europe, us', async () => {
      const destination = await newDestination();
      const response = await patch(destination.id, { regions: ['us', 'eu'] });
      expect(response.status).toBe(200);
      expect(response.body.data.regions).toEqual(['europe', 'us']);
      expect((await stored(destination.id)).state.regions).toEqual(['europe', 'us']);
      const etag = response.headers.get('etag');
      const sameRegions = await patch(destination.id, { regions: ['us', 'europe'] });
      expect(sameRegions.headers.get('etag')).toBe(etag);
      expect((await patch(destination.id, { name: 'Kept regions' })).body.data.regions).toEqual(['europe', 'us']);
      // eu and europe together are Europe once.
      expect((await patch(destination.id, { regions: ['eu', 'europe'] })).body.data.regions).toEqual(['europe']);
      expect((await patch(destination.id, { regions: ['global', 'us', 'europe'] })).body.data.regions).toEqual([
        'global',
        'europe',
        'us',
      ]);
    });

    it.each([
      [
        'a flag of the wrong type',
        { broadcast_generation_cost: 'yes' },
        '/body/broadcast_generation_cost',
        'must be boolean',
      ],
      [
        'a null flag',
        { broadcast_generation_identity: null },
        '/body/broadcast_generation_identity',
        'must be boolean',
      ],
      ['regions not an array', { regions: 'europe' }, '/body/regions', 'must be array'],
      ['regions null: they cannot be cleared', { regions: null }, '/body/regions', 'must be array'],
      ['no region', { regions: [] }, '/body/regions', 'must NOT have fewer than 1 items'],
      [
        'an unknown region',
        { regions: ['global', 'mars'] },
        '/body/regions/1',
        'must be one of: global, europe, us, eu',
      ],
      [
        'more regions than there are',
        { regions: ['global', 'europe', 'us', 'eu'] },
        '/body/regions',
        'must NOT have more than 3 items',
      ],
      [
        'a region named twice',
        { regions: ['us', 'us'] },
        '/body/regions',
        'must NOT have duplicate items (items 1 and 0 are identical)',
      ],
    ])('answers 400 to %s, naming the field, and changes nothing', async (_case, body, path, message) => {
      const destination = await newDestination();
      const before = await stored(destination.id);
      const response = await patch(destination.id, body);
      expect(response.status).toBe(400);
      expect(response.body.error.metadata.errors).toEqual([{ path, message }]);
      expect(await stored(destination.id)).toEqual(before);
    });
  });

  describe('config', () => {
    it('merges the keys given and keeps the others, secrets included', async () => {
      const destination = await newDestination();
      const response = await patch(destination.id, { config: { baseUrl: 'https://eu.langfuse.example' } });
      expect(response.status).toBe(200);
      expect(response.body.data.config).toEqual({
        baseUrl: 'https://eu.langfuse.example',
        publicKey: 'pk-l...EfGh',
        secretKey: 'sk-l...2c4d',
      });
      expect((await stored(destination.id)).state.config).toEqual({
        ...LANGFUSE_CONFIG,
        baseUrl: 'https://eu.langfuse.example',
      });
    });

    it('replaces a secret given in full and returns it masked', async () => {
      const destination = await newDestination();
      const secret = 'sk-lf-new-secret-value-0123456789-XyZ9';
      const response = await patch(destination.id, { config: { secretKey: secret } });
      expect(response.body.data.config.secretKey).toBe('sk-l...XyZ9');
      expect((await stored(destination.id)).state.config.secretKey).toBe(secret);
    });

    it('masks a secret shorter than 32 characters entirely, and keeps it when that mask is sent back', async () => {
      const destination = await newDestination();
      const [below, shortest] = ['pk-lf-0123456789abcdef012345678', 'pk-lf-0123456789abcdef0123456789'];
      expect([below.length, shortest.length]).toEqual([31, 32]);
      const response = await patch(destination.id, { config: { publicKey: below } });
      expect(response.body.data.config.publicKey).toBe('********');
      const sentBack = await patch(destination.id, { config: { publicKey: '********' } });
      expect([sentBack.status, sentBack.body.data.updated_at]).toEqual([200, response.body.data.updated_at]);
      expect(sentBack.headers.get('etag')).toBe(response.headers.get('etag'));
      expect((await stored(destination.id)).state.config.publicKey).toBe(below);
      const longer = await patch(destination.id, { config: { publicKey: shortest } });
      expect(longer.body.data.config.publicKey).toBe('pk-l...6789');
    });

    it('ignores a secret sent back exactly as its mask, and changes nothing', async () => {
      const destination = await newDestination();
      const first = await patch(destination.id, {});
      const response = await patch(destination.id, { config: first.body.data.config });
      expect(response.status).toBe(200);
      expect(response.body.data.updated_at).toBe(first.body.data.updated_at);
      expect(response.headers.get('etag')).toBe(first.headers.get('etag'));
      expect((await stored(destination.id)).state.config).toEqual(LANGFUSE_CONFIG);
    });

    it.each([
      ['a mask of another value', 'sk-l...0000'],
      ['a mask of a short secret', '********'],
      ['a single star', '*'],
      ['anything with an ellipsis', 'abc...'],
    ])('rejects %s as a secret, storing nothing', async (_name, value) => {
      const destination = await newDestination();
      const response = await patch(destination.id, { config: { secretKey: value }, sampling_rate: 0.5 });
      expect(response.status).toBe(400);
      expect(response.body.error.metadata.errors).toContainEqual(
        expect.objectContaining({ path: '/body/config/secretKey' }),
      );
      const after = await stored(destination.id);
      expect(after.state.config.secretKey).toBe(SECRET_KEY);
      expect(after.state.sampling_rate).toBe(1);
    });

    it('rejects a key of another destination type, naming it', async () => {
      const destination = await newDestination();
      const response = await patch(destination.id, { config: { bucketName: 'logs' } });
      expect(response.status).toBe(400);
      expect(response.body.error.metadata.errors).toEqual([
        expect.objectContaining({ path: '/body/config/bucketName' }),
      ]);
      expect(response.body.error.message).toContain('bucketName');
    });

    it('checks values against the rules of the type (newrelic region us|eu)', async () => {
      const destination = await newDestination({
        type: 'newrelic',
        config: { licenseKey: 'nr-license-0123456789abcdef0123456789abcdef', region: 'us' },
      });
      const bad = await patch(destination.id, { config: { region: 'asia' } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.metadata.errors).toContainEqual(expect.objectContaining({ path: '/body/config/region' }));
      const good = await patch(destination.id, { config: { region: 'eu' } });
      expect(good.body.data.config).toEqual({ licenseKey: 'nr-l...cdef', region: 'eu' });
    });

    it('treats header values as secrets, masked and kept when sent back masked', async () => {
      const destination = await newDestination({
        type: 'webhook',
        config: {
          url: 'https://hooks.example.com/llm',
          headers: { 'X-Token': 'token-0123456789abcdef0123456789abcdef' },
        },
      });
      const first = await patch(destination.id, {});
      expect(first.body.data.config).toEqual({
        url: 'https://hooks.example.com/llm',
        headers: { 'X-Token': 'toke...cdef' },
      });
      const response = await patch(destination.id, {
        config: { headers: { 'X-Token': 'toke...cdef', 'X-Other': 'other-secret-value-0123456789abcdef-42' } },
      });
      expect(response.body.data.config.headers).toEqual({ 'X-Token': 'toke...cdef', 'X-Other': 'othe...f-42' });
      expect((await stored(destination.id)).state.config.headers).toEqual({
        'X-Token': 'token-0123456789abcdef0123456789abcdef',
        'X-Other': 'other-secret-value-0123456789abcdef-42',
      });
    });

    it('accepts every destination type with its own keys', async () => {
      const samples: Record<string, ConfigValues> = {
        s3: {
          bucketName: 'telemetry',
          accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
          secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
          region: 'eu-west-1',
        },
        'otel-collector': { endpoint: 'https://otel.example.com/v1/traces' },
        snowflake: { account: 'xy12345', token: 'snowflake-token-abcdefgh1234' },
      };
      for (const [type, config] of Object.entries(samples)) {
        const destination = await newDestination({ type, config });
        const response = await patch(destination.id, {});
        expect(response.status, type).toBe(200);
        expect(response.body.data.type).toBe(type);
      }
    });

    it('encrypts secrets at rest: what the database holds has no secret in clear', async () => {
      const destination = await newDestination({
        config: { ...LANGFUSE_CONFIG, secretKey: 'sk-lf-PLAINTEXT-CANARY-7f3a9c' },
      });
      await patch(destination.id, { config: { publicKey: 'pk-lf-ANOTHER-CANARY-51e2d8' } });
      const atRest: string[] = [];
      if (testDatabaseKind === 'sqlite') {
        const files = readdirSync(dataDir).filter((name) => name.startsWith('api.db'));
        expect(files.length).toBeGreaterThan(0);
        for (const file of files) atRest.push(readFileSync(join(dataDir, file)).toString('latin1'));
      } else {
        atRest.push(JSON.stringify(await rawRows(server.databaseUrl, 'destinations')));
        expect(atRest[0]).toContain(destination.id);
      }
      for (const bytes of atRest) {
        expect(bytes).not.toContain('PLAINTEXT-CANARY');
        expect(bytes).not.toContain('ANOTHER-CANARY');
      }
    });
  });

  describe('filter_rules', () => {
    it('stores the rules with their defaults written out', async () => {
      const destination = await newDestination();
      const response = await patch(destination.id, {
        filter_rules: {
          groups: [
            {
              rules: [
                { field: 'model', operator: 'starts_with', value: 'anthropic/' },
                { field: 'total_cost', operator: 'gt', value: 0.01 },
              ],
            },
          ],
        },
      });
      expect(response.body.data.filter_rules).toEqual({
        enabled: true,
        groups: [
          {
            logic: 'and',
            rules: [
              { field: 'model', operator: 'starts_with', value: 'anthropic/' },
              { field: 'total_cost', operator: 'gt', value: 0.01 },
            ],
          },
        ],
      });
    });

    it.each([
      [
        'a value with exists',
        { field: 'user_id', operator: 'exists', value: 'x' },
        'is not allowed with operator exists',
      ],
      ['no value with equals', { field: 'model', operator: 'equals' }, 'is required with operator equals'],
      ['a string with gt', { field: 'total_cost', operator: 'gt', value: 'cheap' }, 'must be number with operator gt'],
      [
        'a number with contains',
        { field: 'input', operator: 'contains', value: 3 },
        'must be string with operator contains',
      ],
      [
        'a boolean with not_equals',
        { field: 'model', operator: 'not_equals', value: false },
        'must be string,number with operator not_equals',
      ],
      [
        'an invalid regular expression',
        { field: 'output', operator: 'regex', value: '([a-z' },
        'must match format "regex" with operator regex',
      ],
    ])('rejects %s, naming the value and what the operator needs', async (_name, rule, message) => {
      const destination = await newDestination();
      const response = await patch(destination.id, { filter_rules: { groups: [{ rules: [rule] }] } });
      expect(response.status).toBe(400);
      expect(response.body.error.metadata.errors).toEqual([
        { path: '/body/filter_rules/groups/0/rules/0/value', message },
      ]);
      expect((await stored(destination.id)).state.filter_rules).toBeNull();
    });

    it.each([
      ['gt with a string', { field: 'model', operator: 'gt', value: 'openai/' }],
      ['contains with a number', { field: 'model', operator: 'contains', value: 3 }],
      ['exists with a value', { field: 'model', operator: 'exists', value: 'x' }],
    ])('refuses %s, as the published schema does', async (_name, rule) => {
      const body = { filter_rules: { groups: [{ rules: [rule] }] } };
      expect(requestBodySchema('updateObservabilityDestination')(body)).toBe(false);
      expect((await patch((await newDestination()).id, body)).status).toBe(400);
    });

    it('names an unknown operator with the operators there are, and a bad field beside it', async () => {
      const destination = await newDestination();
      const response = await patch(destination.id, {
        filter_rules: { groups: [{ rules: [{ field: 'colour', operator: 'like', value: 'x' }] }] },
      });
      expect(response.status).toBe(400);
      const operators = (spec.components.schemas.FilterRule as { oneOf: { $ref: string }[] }).oneOf.flatMap(
        ({ $ref }) =>
          (spec.components.schemas[$ref.split('/').pop() ?? ''] as { properties: { operator: { enum: string[] } } })
            .properties.operator.enum,
      );
      expect(response.body.error.metadata.errors).toEqual([
        { path: '/body/filter_rules/groups/0/rules/0/operator', message: `must be one of: ${operators.join(', ')}` },
        {
          path: '/body/filter_rules/groups/0/rules/0/field',
          message: expect.stringMatching(/^must be one of: model, /),
        },
      ]);
    });
  });

  describe('updated_at and ETag', () => {
    it('change only when a value changes', async () => {
      const destination = await newDestination();
      server.clock.set('2026-11-18T14:00:00.000Z');
      const empty = await patch(destination.id, {});
      expect(empty.status).toBe(200);
      expect(empty.body.data.updated_at).toBe('2026-11-18T12:00:00.000Z');
      const etag = empty.headers.get('etag');
      expect(etag).toMatch(/^"[^"]+"$/);

      const same = await patch(destination.id, {
        name: 'Langfuse',
        sampling_rate: 1,
        enabled: true,
        config: { baseUrl: LANGFUSE_CONFIG.baseUrl },
      });
      expect(same.body.data.updated_at).toBe('2026-11-18T12:00:00.000Z');
      expect(same.headers.get('etag')).toBe(etag);

      const changed = await patch(destination.id, { sampling_rate: 0.5 });
      expect(changed.body.data.updated_at).toBe('2026-11-18T14:00:00.000Z');
      expect(changed.headers.get('etag')).not.toBe(etag);
    });

    it('a changed-back value still gets a new ETag', async () => {
      const destination = await newDestination();
      const first = await patch(destination.id, {});
      await patch(destination.id, { enabled: false });
      const back = await patch(destination.id, { enabled: true });
      expect(back.headers.get('etag')).not.toBe(first.headers.get('etag'));
    });

    it('applies an update whose If-Match is current, or *', async () => {
      const destination = await newDestination();
      const etag = (await patch(destination.id, {})).headers.get('etag') ?? '';
      const response = await patch(destination.id, { enabled: false }, { headers: { 'if-match': etag } });
      expect(response.status).toBe(200);
      const star = await patch(destination.id, { enabled: true }, { headers: { 'if-match': '*' } });
      expect(star.status).toBe(200);
      const list = await patch(
        destination.id,
        { name: 'Listed' },
        { headers: { 'if-match': `"other", ${star.headers.get('etag')}` } },
      );
      expect(list.status).toBe(200);
    });

    it('answers 412 to a stale If-Match and changes nothing', async () => {
      const destination = await newDestination();
      const etag = (await patch(destination.id, {})).headers.get('etag') ?? '';
      await patch(destination.id, { sampling_rate: 0.5 });
      const stale = await patch(
        destination.id,
        { sampling_rate: 0.1, name: 'Lost' },
        { headers: { 'if-match': etag } },
      );
      expect(stale.status).toBe(412);
      expect(stale.body.error).toMatchObject({ code: 412 });
      const weak = await patch(
        destination.id,
        { name: 'Lost' },
        { headers: { 'if-match': `W/${stale.headers.get('etag')}` } },
      );
      expect(weak.status).toBe(412);
      expect((await stored(destination.id)).state).toMatchObject({ sampling_rate: 0.5, name: 'Langfuse' });
    });
  });

  it('loses no update when many PATCHes of different fields run at once', async () => {
    const destination = await newDestination({ type: 'webhook', config: { url: 'https://hooks.example.com/a' } });
    const names = Array.from({ length: 20 }, (_, i) => `X-Header-${i}`);
    // Each request sets one header value on top of whatever is stored, through `headers` replacement of
    // its own key only: a lost update would drop another request's header.
    const results = await Promise.all([
      patch(destination.id, { enabled: false }),
      patch(destination.id, { privacy_mode: true }),
      patch(destination.id, { sampling_rate: 0.3 }),
      patch(destination.id, { name: 'Concurrent' }),
      patch(destination.id, { api_key_hashes: ['h1'] }),
      patch(destination.id, { config: { method: 'PUT' } }),
      patch(destination.id, { filter_rules: { groups: [] } }),
      ...names.map(() => patch(destination.id, { config: { url: 'https://hooks.example.com/b' } })),
    ]);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect((await stored(destination.id)).state).toMatchObject({
      enabled: false,
      privacy_mode: true,
      sampling_rate: 0.3,
      name: 'Concurrent',
      api_key_hashes: ['h1'],
      filter_rules: { enabled: true, groups: [] },
      config: { url: 'https://hooks.example.com/b', method: 'PUT' },
    });
  });

  describe('access', () => {
    it('answers 403 to a standard key, and changes nothing', async () => {
      const destination = await newDestination();
      const response = await patch(destination.id, { enabled: false }, { key: workspace.standardKey });
      expect(response.status).toBe(403);
      expect(response.body.error.metadata).toEqual({ accepted_key_kinds: ['management'] });
      expect((await stored(destination.id)).state.enabled).toBe(true);
    });

    it('answers 404 for an unknown id and for a destination of another workspace, alike', async () => {
      const unknown = await patch('7019b9f2-c5e6-4f46-873e-55a17bb095a3', { enabled: false });
      expect(unknown.status).toBe(404);
      const foreign = await provision.createDestination(
        server.store,
        { workspaceId: otherWorkspace.id, type: 'otel-collector', config: { endpoint: 'https://otel.example.com' } },
        server.clock.now(),
      );
      const response = await patch(foreign.id, { enabled: false });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(unknown.body);
      expect((await readDestination(server.store, otherWorkspace.id, foreign.id))?.state.enabled).toBe(true);
    });

    it('answers 401 without a key', async () => {
      const destination = await newDestination();
      const response = await call(server, 'PATCH', `/api/v1/observability/destinations/${destination.id}`, {
        body: {},
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    });
  });

  // JSON writes numbers past the range of a double (1e999), which JSON.parse reads as Infinity:
  // the validator's strictNumbers refuses them as it refuses any value that is not a finite number.
  describe('numbers of the body past the range of a double', () => {
    const rulesOf = (rule: string) => `{"filter_rules":{"groups":[{"rules":[${rule}]}]}}`;
    const ruleValue = '/body/filter_rules/groups/0/rules/0/value';

    it('are in the bodies of the contract at the fields tested here, and nowhere else', () => {
      const bodies = specOperations(spec).flatMap(({ template, method, operation }) =>
        operation.requestBody
          ? [[operation.operationId, numericFieldsOf(nodeAt(spec, requestBodyPointer(template, method)), '/body')]]
          : [],
      );
      expect(Object.fromEntries(bodies)).toEqual({
        updateObservabilityDestination: ['/body/filter_rules/groups/*/rules/*/value', '/body/sampling_rate'],
      });
    });

    it.each([
      ['sampling_rate 1e999', '{"sampling_rate":1e999}', '/body/sampling_rate'],
      ['sampling_rate -1e999', '{"sampling_rate":-1e999}', '/body/sampling_rate'],
      ['sampling_rate of 400 digits', `{"sampling_rate":1${'0'.repeat(400)}}`, '/body/sampling_rate'],
      ['sampling_rate 1e-400 (0 as a double)', '{"sampling_rate":1e-400}', '/body/sampling_rate'],
      ['a numeric rule value 1e400', rulesOf('{"field":"total_cost","operator":"gt","value":1e400}'), ruleValue],
      ['a numeric rule value -1e999', rulesOf('{"field":"total_cost","operator":"lte","value":-1e999}'), ruleValue],
      ['an equality rule value -1e999', rulesOf('{"field":"model","operator":"equals","value":-1e999}'), ruleValue],
      ['an equality rule value 1e999', rulesOf('{"field":"model","operator":"not_equals","value":1e999}'), ruleValue],
    ])('refuses %s with 400 naming it, and changes nothing', async (_name, rawBody, path) => {
      const destination = await newDestination();
      const before = await stored(destination.id);
      const response = await call(server, 'PATCH', `/api/v1/observability/destinations/${destination.id}`, {
        key: workspace.managementKey,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
      expect(response.body.error.metadata.errors.map((e: { path: string }) => e.path)).toEqual([path]);
      expect(await stored(destination.id)).toEqual(before);
    });

    it('names each of them in one body', async () => {
      const destination = await newDestination();
      const rules = [
        '{"field":"total_cost","operator":"gt","value":1e400}',
        '{"field":"model","operator":"equals","value":-1e999}',
      ];
      const response = await call(server, 'PATCH', `/api/v1/observability/destinations/${destination.id}`, {
        key: workspace.managementKey,
        rawBody: `{"sampling_rate":-1e999,"filter_rules":{"groups":[{"rules":[${rules.join(',')}]}]}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
      expect(response.body.error.metadata.errors.map((e: { path: string }) => e.path)).toEqual([
        '/body/sampling_rate',
        '/body/filter_rules/groups/0/rules/0/value',
        '/body/filter_rules/groups/0/rules/1/value',
      ]);
    });

    it('takes the finite numbers at the ends of a double, and stores them as sent', async () => {
      const destination = await newDestination();
      const rules = [
        { field: 'total_cost', operator: 'gt', value: -Number.MAX_VALUE },
        { field: 'total_tokens', operator: 'lt', value: Number.MIN_VALUE },
        { field: 'model', operator: 'equals', value: Number.MAX_VALUE },
      ];
      const response = await patch(destination.id, { filter_rules: { groups: [{ rules }] } });
      expect(response.status).toBe(200);
      expect(response.body.data.filter_rules.groups[0].rules).toEqual(rules);
      expect((await stored(destination.id)).state.filter_rules?.groups[0]?.rules).toEqual(rules);
    });
  });

  describe('boundary values of the contract', () => {
    const cases = boundaryCases.filter((c) => c.target.operationId === 'updateObservabilityDestination');
    it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
      const destination = await newDestination();
      const before = await stored(destination.id);
      const id = testCase.target.in === 'path' ? String(testCase.value) : destination.id;
      const body = testCase.target.in === 'body' ? testCase.value : {};
      const response = await patch(id, body);
      if (testCase.valid) {
        // A valid id that names no destination of the workspace is the documented 404.
        expect(response.status).toBe(testCase.target.in === 'path' ? 404 : 200);
      } else {
        expect(response.status).toBe(400);
        expect(response.body.error.metadata.errors.map((e: { path: string }) => e.path)).toContain(testCase.errorPath);
        expect(await stored(destination.id)).toEqual(before);
      }
    });
  });
});

describe('regressions found by the conformance suite', () => {
  it('takes headers named like Object.prototype members (was a 500)', async () => {
    const destination = await provision.createDestination(
      server.store,
      { workspaceId: workspace.id, type: 'webhook', config: { url: 'https://hooks.example.com/x' } },
      server.clock.now(),
    );
    const body =
      '{"config":{"headers":{"__proto__":"secret-header-value-1","constructor":"secret-header-value-2","toString":"v"}}}';
    const response = await call(server, 'PATCH', `/api/v1/observability/destinations/${destination.id}`, {
      key: workspace.managementKey,
      rawBody: body,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.data.config.headers).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    const stored = await readDestination(server.store, workspace.id, destination.id);
    expect(Object.getOwnPropertyDescriptor(stored?.state.config.headers, '__proto__')?.value).toBe(
      'secret-header-value-1',
    );
  });
});
