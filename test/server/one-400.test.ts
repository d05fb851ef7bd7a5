// One 400 names every failing field the server can know, each once: the fields of every check of
// the check step (server/validation/request-checks.ts) together, and, for an existing destination,
// the rules of its type. A client that fixes what it was told is not told about the next field.
import { describe, expect, it } from 'vitest';
import { nodeAt } from '../../server/spec.js';
import { oneEntryPerField } from '../../server/validation/field-messages.js';
import { readDestination } from '../support/destinations.js';
import { call, provision } from '../support/server.js';
import { spec } from '../support/spec.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

const server = useTestServer();
const workspace = useWorkspace(server);

const LANGFUSE_CONFIG = {
  baseUrl: 'https://cloud.langfuse.com',
  publicKey: 'pk-lf-1234567890abcdef-1234567890abcdEfGh',
  secretKey: 'sk-lf-0b7e2f4c9a1d4e6b8c3f5a7d9e1b2c4d',
};

async function langfuseDestination(): Promise<string> {
  const destination = await provision.createDestination(
    server.store,
    { workspaceId: workspace.id, type: 'langfuse', name: 'Langfuse', config: { ...LANGFUSE_CONFIG } },
    server.clock.now(),
  );
  return destination.id;
}

/** The fields a PATCH of a new langfuse destination is refused for; the destination unchanged. */
async function refusedFields(body: unknown): Promise<{ path: string; message: string }[]> {
  const id = await langfuseDestination();
  const before = await readDestination(server.store, workspace.id, id);
  const response = await call(server, 'PATCH', `/api/v1/observability/destinations/${id}`, {
    key: workspace.managementKey,
    body,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(await readDestination(server.store, workspace.id, id)).toEqual(before);
  const errors = response.body.error.metadata.errors as { path: string; message: string }[];
  expect(JSON.stringify(response.body)).not.toContain('##');
  expect(new Set(errors.map((e) => e.path)).size, 'each field once').toBe(errors.length);
  return errors;
}

const paths = (errors: { path: string }[]) => errors.map((e) => e.path).sort();

const nonLinearRules = { groups: [{ rules: [{ field: 'model', operator: 'regex', value: '(a+)+$' }] }] };
const patternPath = '/body/filter_rules/groups/0/rules/0/value';

describe('the bodies that got a 400 naming one field of several', () => {
  it.each([
    [{ sampling_rate: 2, filter_rules: nonLinearRules }, [patternPath, '/body/sampling_rate']],
    [{ filter_rules: nonLinearRules, config: { nope: 1 } }, ['/body/config/nope', patternPath]],
    [{ regions: ['global', 'global'], config: { url: 'x' } }, ['/body/config/url', '/body/regions']],
  ])('now name every one: %j', async (body, expected) => {
    expect(paths(await refusedFields(body))).toEqual(expected);
  });

  it("names a key of another type with its type's words, beside the URL it breaks", async () => {
    const errors = await refusedFields({ regions: ['global', 'global'], config: { url: 'x' } });
    const url = errors.find((e) => e.path === '/body/config/url');
    expect(url?.message).toContain('is not a config key of a langfuse destination');
    expect(url?.message).toContain(' and ');
  });
});

// One failure of each check, on fields of their own; each pair of them gets one 400 naming both.
const maxHashes = nodeAt(spec, '#/components/schemas/ApiKeyHashList/maxItems') as number;
const FAILURES: Record<string, { body: Record<string, unknown>; path: string }> = {
  schema: { body: { sampling_rate: 2 }, path: '/body/sampling_rate' },
  sizes: { body: { api_key_hashes: Array.from({ length: maxHashes + 1 }, () => 'x') }, path: '/body/api_key_hashes' },
  'storable text': { body: { name: 'a\u0000b' }, path: '/body/name' },
  'linear time': { body: { filter_rules: nonLinearRules }, path: patternPath },
  'config type': { body: { config: { endpoint: 'https://otel.example.com' } }, path: '/body/config/endpoint' },
  URL: { body: { config: { baseUrl: 'javascript:alert(1)' } }, path: '/body/config/baseUrl' },
};

function merged(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const config = { ...(a.config as object | undefined), ...(b.config as object | undefined) };
  return { ...a, ...b, ...(Object.keys(config).length > 0 && { config }) };
}

const checks = Object.keys(FAILURES);
const pairs = checks.flatMap((first, index) => checks.slice(index + 1).map((second) => [first, second] as const));

describe('a failure of each of two checks', () => {
  it('pairs every check with every other', () => {
    expect(pairs).toHaveLength((checks.length * (checks.length - 1)) / 2);
  });

  it.each(pairs)('%s and %s: one 400 naming both fields', async (first, second) => {
    const [a, b] = [FAILURES[first], FAILURES[second]];
    if (!a || !b) throw new Error(`no failure for ${first} or ${second}`);
    const named = paths(await refusedFields(merged(a.body, b.body)));
    expect(named).toContain(a.path);
    expect(named).toContain(b.path);
  });
});

describe('a field that breaks several rules', () => {
  it('is one entry, its message giving each reason', async () => {
    const response = await call(server, 'GET', '/api/v1/presets/demo/versions?offset=99999999999', {
      key: workspace.managementKey,
    });
    expect(response.status).toBe(400);
    const errors = response.body.error.metadata.errors as { path: string; message: string }[];
    expect(errors.filter((e) => e.path === '/query/offset')).toHaveLength(1);
    expect(errors.find((e) => e.path === '/query/offset')?.message).toMatch(/ and /);
  });

  it('is named once for a value of the wrong type that no enum value is', async () => {
    const errors = await refusedFields({ regions: [5] });
    expect(errors.filter((e) => e.path === '/body/regions/0')).toHaveLength(1);
  });

  it('joins distinct reasons in the order found, once each, without the internals of Ajv', () => {
    expect(
      oneEntryPerField([
        { path: '/a', message: 'must be <= 2' },
        { path: '/b', message: 'must NOT have duplicate items (items ## 1 and 0 are identical)' },
        { path: '/a', message: 'must match format "int32"' },
        { path: '/a', message: 'must be <= 2' },
      ]),
    ).toEqual([
      { path: '/a', message: 'must be <= 2 and must match format "int32"' },
      { path: '/b', message: 'must NOT have duplicate items (items 1 and 0 are identical)' },
    ]);
  });
});
