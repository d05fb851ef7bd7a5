// Bytes that are not UTF-8 are refused with 400 naming the field, on both databases, wherever a
// client can write them: percent-encoded in a path parameter or the query, or raw in a string or
// key of a JSON body. A decoder would put U+FFFD in their place, so nothing is stored in place of
// what was sent, and nothing answers 5xx. Requests are written with node:http: fetch would
// re-encode them.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_METHODS, operationPath, specOperation, specOperations } from '../../server/spec.js';
import { provision } from '../support/server.js';
import { componentSchema, describeErrors, spec } from '../support/spec.js';
import { useDestination, useTestServer, useWorkspace } from '../support/use-test-server.js';

const server = useTestServer();
const workspace = useWorkspace(server);
const destination = useDestination(server, workspace);
let langfuseId = '';

beforeAll(async () => {
  langfuseId = (
    await provision.createDestination(
      server.store,
      {
        workspaceId: workspace.id,
        type: 'langfuse',
        name: 'Traces',
        config: {
          publicKey: 'pk-lf-0123456789abcdef0123456789abcdef',
          secretKey: 'sk-lf-0123456789abcdef0123456789ab',
        },
      },
      server.clock.now(),
    )
  ).id;
});

afterAll(() => {
  expect(server.serverErrors()).toEqual([]);
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: a response body read field by field by each test
  body: any;
}

/** One request as written: the path's bytes as given, the body's bytes as given. */
function send(method: string, path: string, options: { body?: Buffer; key?: string | null } = {}): Promise<Answer> {
  const { hostname, port } = new URL(server.baseUrl);
  const key = options.key === undefined ? workspace.managementKey : options.key;
  const headers: Record<string, string> = {
    ...(key !== null && { authorization: `Bearer ${key}` }),
    ...(options.body && { 'content-type': 'application/json', 'content-length': String(options.body.length) }),
  };
  return new Promise((resolve, reject) => {
    const sent = request({ hostname, port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const isJson = (response.headers['content-type'] ?? '').includes('json');
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: isJson && text ? JSON.parse(text) : text,
        });
      });
    });
    sent.on('error', reject);
    sent.end(options.body);
  });
}

/** A JSON body with bytes that are not UTF-8: `\xNN` in `text` stands for the byte NN. */
function bytes(text: string): Buffer {
  return Buffer.from(text, 'latin1');
}

/** A 400 in the documented envelope that names `path` with a message matching `reason`. */
function expectRefused(answer: Answer, path: string, reason: RegExp) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  const validate = componentSchema('ErrorResponse');
  expect(validate(answer.body), describeErrors(validate.errors)).toBe(true);
  const errors = answer.body.error.metadata.errors as { path: string; message: string }[];
  expect(errors.filter((error) => error.path === path).map((error) => error.message)).toEqual(
    expect.arrayContaining([expect.stringMatching(reason)]),
  );
}

const operations = specOperations(spec);
const validPathValues = (): Record<string, string> => ({
  hash: workspace.standardKeyHash,
  id: destination.path.split('/').at(-1) ?? '',
  slug: 'support-agent',
});
// Stands for a path parameter in a path made by operationPath, then replaced by what operationPath would encode again.
const PLACEHOLDER = 'path-parameter-placeholder';

/** The path of an operation with `written` as the value of its parameter `name`, exactly as written. */
function pathWith(operationId: string, name: string, written: string): string {
  return operationPath(spec, operationId, { ...validPathValues(), [name]: PLACEHOLDER }).replace(PLACEHOLDER, written);
}

const NOT_UTF8_IN_A_PATH = [
  ['a byte that starts no character', '%FF'],
  ['an overlong encoding', '%C0%AF'],
  ['an encoded surrogate', '%ED%A0%80'],
  ['a truncated character', '%E2%82'],
  ['a % before no byte', '%zz'],
] as const;

const pathParameters = operations.flatMap(({ method, template, operation, parameters }) =>
  parameters
    .filter((p) => p.in === 'path')
    .map((p) => ({ method: method.toUpperCase(), template, operationId: operation.operationId, name: p.name })),
);
const queryParameters = operations.flatMap(({ method, operation, parameters }) =>
  parameters
    .filter((p) => p.in === 'query')
    .map((p) => ({ method: method.toUpperCase(), operationId: operation.operationId, name: p.name })),
);

/** The body an operation is sent with: `{}` where it takes one. */
function bodyOf(operationId: string): Buffer | undefined {
  return specOperation(spec, operationId).operation.requestBody ? Buffer.from('{}') : undefined;
}

describe('a path parameter that is not percent-encoded UTF-8', () => {
  const cases = pathParameters.flatMap((parameter) =>
    NOT_UTF8_IN_A_PATH.map(([what, written]) => ({ ...parameter, what, written })),
  );

  it.each(cases)('$operationId: $name with $what ($written) is 400 naming it', async (c) => {
    const answer = await send(c.method, pathWith(c.operationId, c.name, c.written), { body: bodyOf(c.operationId) });
    expectRefused(answer, `/path/${c.name}`, /percent-encoded UTF-8/);
    expect(answer.body.error.metadata.errors).toHaveLength(1);
  });

  it.each(pathParameters)('$operationId: is 401 without a key, as any invalid parameter', async (c) => {
    const answer = await send(c.method, pathWith(c.operationId, c.name, '%FF'), {
      body: bodyOf(c.operationId),
      key: null,
    });
    expect(answer.status).toBe(401);
  });

  it.each(pathParameters.filter((c) => c.method === 'GET'))('$operationId: is 400 to HEAD as to GET', async (c) => {
    expect((await send('HEAD', pathWith(c.operationId, c.name, '%FF'))).status).toBe(400);
  });

  it('is named with the text the same request has that no database stores', async () => {
    const answer = await send('PATCH', pathWith('updateObservabilityDestination', 'id', '%FF'), {
      body: Buffer.from(JSON.stringify({ name: 'a\u0000b' })),
    });
    expectRefused(answer, '/path/id', /percent-encoded UTF-8/);
    expectRefused(answer, '/body/name', /U\+0000/);
  });

  it.each(pathParameters)('$operationId: a method its path does not take is 405, as with a valid value', async (c) => {
    const taken = operations.filter((entry) => entry.template === c.template).map((entry) => entry.method);
    // HEAD is taken wherever GET is.
    const other = HTTP_METHODS.find((method) => method !== 'head' && !taken.includes(method));
    if (!other) throw new Error(`every method is taken by the path of ${c.operationId}`);
    const valid = await send(other.toUpperCase(), pathWith(c.operationId, c.name, 'valid'), { key: null });
    const answer = await send(other.toUpperCase(), pathWith(c.operationId, c.name, '%FF'), { key: null });
    expect(valid.status).toBe(405);
    expect([answer.status, answer.headers.allow]).toEqual([405, valid.headers.allow]);
  });

  it.each(pathParameters)(
    '$operationId: the same path with a trailing slash is 404, as any path of no operation',
    async (c) => {
      const answer = await send(c.method, `${pathWith(c.operationId, c.name, '%FF')}/`, { key: null });
      expect([answer.status, answer.body.error?.message]).toEqual([404, 'Not found.']);
    },
  );
});

describe('a query name or value that is not percent-encoded UTF-8', () => {
  it.each(queryParameters)('$operationId: $name=%FF is 400 naming it', async (c) => {
    const path = operationPath(spec, c.operationId, validPathValues());
    expectRefused(
      await send(c.method, `${path}?${c.name}=%FF`, { body: bodyOf(c.operationId) }),
      `/query/${c.name}`,
      /percent-encoded UTF-8/,
    );
  });

  it.each(
    operations.map(({ method, operation }) => ({ method: method.toUpperCase(), operationId: operation.operationId })),
  )('$operationId: in the value of a parameter it does not take, and in names, each named', async (c) => {
    const path = operationPath(spec, c.operationId, validPathValues());
    const answer = await send(c.method, `${path}?note=%C0%AF&x%FF=1&y%FE&a+b=%FF`, { body: bodyOf(c.operationId) });
    expectRefused(answer, '/query/note', /percent-encoded UTF-8/);
    expectRefused(answer, '/query/x%FF', /percent-encoded UTF-8/);
    expectRefused(answer, '/query/y%FE', /percent-encoded UTF-8/);
    expectRefused(answer, '/query/a b', /percent-encoded UTF-8/);
  });
});

describe('a JSON body with bytes that are not UTF-8', () => {
  const langfusePath = () => operationPath(spec, 'updateObservabilityDestination', { id: langfuseId });
  const patch = (body: Buffer, key?: string | null) => send('PATCH', langfusePath(), { body, key });
  const readBack = () => patch(Buffer.from('{}'));

  const cases: [string, string, string, RegExp][] = [
    ['a byte that starts no character, in a value', '{"name":"a\xffb"}', '/body/name', /^is not UTF-8/],
    ['an overlong encoding', '{"name":"\xc0\xaf"}', '/body/name', /^is not UTF-8/],
    ['an encoded surrogate', '{"name":"a\xed\xa0\x80"}', '/body/name', /^is not UTF-8/],
    ['a truncated character at the end of the string', '{"name":"a\xe2\x82"}', '/body/name', /^is not UTF-8/],
    [
      'a config secret',
      '{"config":{"secretKey":"sk-lf-\xff0123456789abcdef0123456789"}}',
      '/body/config/secretKey',
      /^is not UTF-8/,
    ],
    ['a header value', '{"config":{"headers":{"X-Team":"\xff"}}}', '/body/config/headers/X-Team', /^is not UTF-8/],
    [
      'a header name',
      '{"config":{"headers":{"X-\xff":"v"}}}',
      '/body/config/headers/X-\ufffd',
      /^has a name that is not UTF-8/,
    ],
    [
      'a key with escapes',
      '{"config":{"headers":{"a\\/b\xff":"v"}}}',
      '/body/config/headers/a~1b\ufffd',
      /^has a name that is not UTF-8/,
    ],
    ['an item of an array', '{"api_key_hashes":["ok","\xff"]}', '/body/api_key_hashes/1', /^is not UTF-8/],
    [
      'a filter rule value, deep in its groups',
      '{"filter_rules":{"groups":[{"rules":[{"field":"model","operator":"equals","value":"ok"}]},' +
        '{"rules":[{"field":"model","operator":"contains","value":"\xf0\x9f"}]}]}}',
      '/body/filter_rules/groups/1/rules/0/value',
      /^is not UTF-8/,
    ],
  ];

  it.each(cases)('in %s: 400 naming it, and the destination unchanged', async (_what, json, path, reason) => {
    const before = await readBack();
    expectRefused(await patch(bytes(json)), path, reason);
    const after = await readBack();
    expect(after.headers.etag).toBe(before.headers.etag);
    expect(after.body).toEqual(before.body);
  });

  it('names every such field, with the fields the contract refuses, in one answer', async () => {
    const answer = await patch(bytes('{"name":"\xff","sampling_rate":2,"config":{"baseUrl":"\xfe"}}'));
    expect(answer.status).toBe(400);
    const paths = (answer.body.error.metadata.errors as { path: string }[]).map((error) => error.path);
    expect(paths).toEqual(expect.arrayContaining(['/body/name', '/body/sampling_rate', '/body/config/baseUrl']));
  });

  it('outside any string is a body that is not JSON: 400, and the destination unchanged', async () => {
    const before = await readBack();
    const answer = await patch(bytes('{"name":"x",\xff}'));
    expect([answer.status, answer.body.error.message]).toEqual([400, expect.stringMatching(/not valid JSON/)]);
    expect((await readBack()).body).toEqual(before.body);
  });

  it('is 401 without a key: the body is not read', async () => {
    expect((await patch(bytes('{"name":"\xff"}'), null)).status).toBe(401);
  });

  it('takes U+FFFD written by the client, in UTF-8 or escaped, and stores it as sent', async () => {
    for (const [json, name] of [
      ['{"name":"a\ufffdb"}', 'a\ufffdb'],
      ['{"name":"c\\ufffdd"}', 'c\ufffdd'],
    ] as const) {
      const answer = await send('PATCH', destination.path, { body: Buffer.from(json, 'utf8') });
      expect([answer.status, answer.body.data?.name]).toEqual([200, name]);
      const after = await send('PATCH', destination.path, { body: Buffer.from('{}') });
      expect(after.body.data.name).toBe(name);
    }
  });
});
