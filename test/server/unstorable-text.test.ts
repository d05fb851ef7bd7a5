// Text that a database cannot store as it was sent (U+0000, which PostgreSQL refuses in text; a
// surrogate outside a pair, which has no UTF-8 encoding) is refused with 400 naming the field, on
// both databases, wherever it is: a path parameter, a query value, a body string or key at any
// depth. Nothing is stored, and nothing answers 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationPath, specOperation, specOperations } from '../../server/spec.js';
import { call, provision } from '../support/server.js';
import { componentSchema, describeErrors, spec } from '../support/spec.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

const server = useTestServer();
const workspace = useWorkspace(server);
let destinationId = '';

beforeAll(async () => {
  destinationId = (
    await provision.createDestination(
      server.store,
      { workspaceId: workspace.id, type: 'webhook', name: 'Hook', config: { url: 'https://example.com/hook' } },
      server.clock.now(),
    )
  ).id;
});

afterAll(() => {
  expect(server.serverErrors()).toEqual([]);
});

const NUL = 'a\u0000b';
const LONE_HIGH = 'a\ud800b';
const LONE_LOW = '\udfffb';

const operations = specOperations(spec);
const validPathValues = (): Record<string, string> => ({
  hash: workspace.standardKeyHash,
  id: destinationId,
  slug: 'support-agent',
});

function send(operationId: string, pathValues: Record<string, string>, query = '', body?: unknown) {
  const found = specOperation(spec, operationId);
  const hasBody = found.operation.requestBody !== undefined;
  return call(server, found.method.toUpperCase(), `${operationPath(spec, operationId, pathValues)}${query}`, {
    key: workspace.managementKey,
    ...(hasBody && { body: body ?? {} }),
  });
}

/** A 400 in the documented envelope that names `path`, with the reason for it. */
function expectRefused(answer: Awaited<ReturnType<typeof call>>, path: string, reason: RegExp) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  const validate = componentSchema('ErrorResponse');
  expect(validate(answer.body), describeErrors(validate.errors)).toBe(true);
  const errors = answer.body.error.metadata.errors as { path: string; message: string }[];
  expect(errors.filter((error) => error.path === path).map((error) => error.message)).toEqual(
    expect.arrayContaining([expect.stringMatching(reason)]),
  );
}

const pathParameters = operations.flatMap(({ operation, parameters }) =>
  parameters.filter((p) => p.in === 'path').map((p) => [operation.operationId, p.name] as const),
);
const queryParameters = operations.flatMap(({ operation, parameters }) =>
  parameters.filter((p) => p.in === 'query').map((p) => [operation.operationId, p.name] as const),
);

describe('U+0000 in a path parameter', () => {
  it.each(pathParameters)('%s: %s is refused with 400 naming it', async (operationId, name) => {
    const answer = await send(operationId, { ...validPathValues(), [name]: NUL });
    expectRefused(answer, `/path/${name}`, /U\+0000/);
  });
});

describe('U+0000 in a query value', () => {
  it.each(queryParameters)('%s: %s is refused with 400 naming it', async (operationId, name) => {
    expectRefused(
      await send(operationId, validPathValues(), `?${name}=${encodeURIComponent(NUL)}`),
      `/query/${name}`,
      /U\+0000/,
    );
  });

  it('in a parameter that no operation takes, as much as in one it takes', async () => {
    const [operationId = ''] = queryParameters[0] ?? [];
    expectRefused(
      await send(operationId, validPathValues(), `?note=${encodeURIComponent(NUL)}`),
      '/query/note',
      /U\+0000/,
    );
  });

  it('in a value sent with no name, named by its empty name', async () => {
    const [operationId = ''] = queryParameters[0] ?? [];
    expectRefused(await send(operationId, validPathValues(), `?=${encodeURIComponent(NUL)}`), '/query/', /U\+0000/);
  });
});

describe('a PATCH body with text no database can store', () => {
  const cases: [string, unknown, string, RegExp][] = [
    ['U+0000 in the name', { name: NUL }, '/body/name', /U\+0000/],
    ['a lone high surrogate in the name', { name: LONE_HIGH }, '/body/name', /unpaired surrogate/],
    ['a lone low surrogate in a config value', { config: { url: LONE_LOW } }, '/body/config/url', /unpaired surrogate/],
    ['U+0000 in a header value', { config: { headers: { 'X-Team': NUL } } }, '/body/config/headers/X-Team', /U\+0000/],
    ['U+0000 in a header name', { config: { headers: { [NUL]: 'v' } } }, `/body/config/headers/${NUL}`, /U\+0000/],
    [
      'U+0000 in a filter rule value, deep in its groups',
      {
        filter_rules: {
          groups: [
            { rules: [{ field: 'model', operator: 'equals', value: 'ok' }] },
            {
              rules: [
                { field: 'model', operator: 'contains', value: 'ok' },
                { field: 'model', operator: 'starts_with', value: NUL },
              ],
            },
          ],
        },
      },
      '/body/filter_rules/groups/1/rules/1/value',
      /U\+0000/,
    ],
    ['U+0000 in a key hash', { api_key_hashes: [NUL] }, '/body/api_key_hashes/0', /U\+0000/],
    [
      'a lone surrogate in the name of an unknown field',
      { [`x/${LONE_HIGH}`]: 1 },
      `/body/x~1${LONE_HIGH}`,
      /unpaired surrogate/,
    ],
  ];

  it.each(cases)('%s is refused with 400 naming it, and changes nothing', async (_name, body, path, reason) => {
    const before = await send('updateObservabilityDestination', validPathValues(), '', {});
    const answer = await send('updateObservabilityDestination', validPathValues(), '', body);
    expectRefused(answer, path, reason);
    const after = await send('updateObservabilityDestination', validPathValues(), '', {});
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    expect(after.body).toEqual(before.body);
  });

  it('names every such string, with the fields the contract refuses, in one answer', async () => {
    const answer = await send('updateObservabilityDestination', validPathValues(), '', {
      name: NUL,
      sampling_rate: 2,
      config: { url: LONE_HIGH },
    });
    expect(answer.status).toBe(400);
    const paths = (answer.body.error.metadata.errors as { path: string }[]).map((error) => error.path);
    expect(paths).toEqual(expect.arrayContaining(['/body/name', '/body/sampling_rate', '/body/config/url']));
  });

  it('takes text beyond ASCII as it is, surrogate pairs included, and answers it back the same', async () => {
    const name = 'Café 中 🙂 \u0301\u200b\u{10ffff}\ufffd';
    const answer = await send('updateObservabilityDestination', validPathValues(), '', { name });
    expect(answer.status).toBe(200);
    expect(answer.body.data.name).toBe(name);
    const after = await send('updateObservabilityDestination', validPathValues(), '', {});
    expect(after.body.data.name).toBe(name);
  });
});
