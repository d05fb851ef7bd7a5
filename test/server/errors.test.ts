import { afterEach, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../server/request-pipeline.js';
import { apiBasePaths, operationPath, specOperations } from '../../server/spec.js';
import type { Store } from '../../server/store/store.js';
import { readDestination } from '../support/destinations.js';
import {
  call,
  createWorkspace,
  provision,
  rawCall,
  spec,
  startTestServer,
  type TestServer,
} from '../support/server.js';

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setUp(wrap?: (store: Store) => Store) {
  server = await startTestServer(wrap ? { store: wrap } : {});
  const workspace = await createWorkspace(server.store, server.clock.now());
  const destination = await provision.createDestination(
    server.store,
    {
      workspaceId: workspace.id,
      type: 'otel-collector',
      name: 'Collector',
      config: { endpoint: 'https://otel.example.com' },
    },
    server.clock.now(),
  );
  return { server, workspace, destinationPath: `/api/v1/observability/destinations/${destination.id}` };
}

/** `metadata`: exactly what the envelope must carry there (null unless a test says otherwise). */
function expectEnvelope(
  response: { status: number; headers: Headers; body: unknown },
  status: number,
  metadata: unknown = null,
) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = response.body as { error: { code: number; message: string; metadata: unknown } };
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'metadata']);
  expect(body.error.code).toBe(status);
  expect(body.error.message.length).toBeGreaterThan(0);
  expect(body.error.metadata).toEqual(metadata);
}

describe('request errors', () => {
  it('answers malformed JSON with 400 naming the body', async () => {
    const { server, workspace, destinationPath } = await setUp();
    const response = await call(server, 'PATCH', destinationPath, {
      key: workspace.managementKey,
      rawBody: '{"enabled": tru',
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelope(response, 400, {
      errors: [{ path: '/body', message: expect.stringMatching(/^is not valid JSON/) }],
    });
    expect(response.body.error.message).toMatch(/^Invalid request: \/body is not valid JSON/);
  });

  it.each([
    // Where the parser stopped, as a character of the text: at the second comma.
    ['{"enabled": true,,}', 'is not valid JSON (at character 17)'],
    // Text that opens an object or an array after white space, or opens an array, is JSON cut short.
    [' {"enabled": tru', /^is not valid JSON/],
    ['[1,', /^is not valid JSON/],
    ['  \n ', /^is not valid JSON/],
  ])('answers the body %j with 400 saying where it is not JSON', async (rawBody, message) => {
    const { server, workspace, destinationPath } = await setUp();
    const response = await call(server, 'PATCH', destinationPath, {
      key: workspace.managementKey,
      rawBody,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.metadata.errors).toEqual([
      { path: '/body', message: typeof message === 'string' ? message : expect.stringMatching(message) },
    ]);
  });

  it.each(['"a string"', '42', 'true', 'null'])(
    'answers JSON that is not an object (%s) with 400 naming the body',
    async (rawBody) => {
      const { server, workspace, destinationPath } = await setUp();
      const response = await call(server, 'PATCH', destinationPath, {
        key: workspace.managementKey,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expectEnvelope(response, 400, { errors: [{ path: '/body', message: 'must be a JSON object' }] });
    },
  );

  it.each([
    ['text/plain', 'enabled=false'],
    ['application/x-www-form-urlencoded', 'enabled=false'],
    ['application/xml', '<enabled>false</enabled>'],
    [
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="enabled"\r\n\r\nfalse\r\n--x--\r\n',
    ],
  ])('answers a %s body with 415', async (contentType, rawBody) => {
    const { server, workspace, destinationPath } = await setUp();
    const response = await call(server, 'PATCH', destinationPath, {
      key: workspace.managementKey,
      rawBody,
      headers: { 'content-type': contentType },
    });
    expectEnvelope(response, 415);
    expect(
      (await readDestination(server.store, workspace.id, destinationPath.split('/').pop() ?? ''))?.state.enabled,
    ).toBe(true);
  });

  describe('a required body', () => {
    const bodyRequired = { path: '/body', message: 'is required: send a JSON object' };

    it.each([
      [
        'JSON, with neither Content-Length nor Transfer-Encoding (curl -X PATCH)',
        ['Content-Type: application/json'],
        '',
      ],
      ['JSON, with Content-Length: 0', ['Content-Type: application/json', 'Content-Length: 0'], ''],
      ['JSON, chunked with no chunk', ['Content-Type: application/json', 'Transfer-Encoding: chunked'], '0\r\n\r\n'],
      ['no content type and no body', [], ''],
      ['no content type and Content-Length: 0', ['Content-Length: 0'], ''],
    ])('is 400 naming /body when missing: %s', async (_name, headers, body) => {
      const { server, workspace, destinationPath } = await setUp();
      const head = [
        `PATCH ${destinationPath} HTTP/1.1`,
        `Authorization: Bearer ${workspace.managementKey}`,
        ...headers,
      ].join('\r\n');
      const response = await rawCall(server, head, body);
      expect(response.status).toBe(400);
      expect(response.body.error).toEqual({
        code: 400,
        message: 'Invalid request: /body is required: send a JSON object',
        metadata: { errors: [bodyRequired] },
      });
      expect(server.serverErrors()).toEqual([]);
    });

    it('is not looked at without a key: 401 comes first, as for every request without a valid key', async () => {
      const { server, destinationPath } = await setUp();
      const response = await rawCall(
        server,
        [`PATCH ${destinationPath} HTTP/1.1`, 'Content-Type: application/json'].join('\r\n'),
      );
      expect(response.status).toBe(401);
      expect(response.body.error.metadata).toBeNull();
    });

    it('is 400, not 500, when the body is only white space', async () => {
      const { server, workspace, destinationPath } = await setUp();
      const response = await call(server, 'PATCH', destinationPath, {
        key: workspace.managementKey,
        rawBody: '  \n ',
        headers: { 'content-type': 'application/json' },
      });
      expectEnvelope(response, 400, { errors: [{ path: '/body', message: expect.stringMatching(/JSON/) }] });
    });

    it('takes {} as a body that changes nothing', async () => {
      const { server, workspace, destinationPath } = await setUp();
      expect((await call(server, 'PATCH', destinationPath, { key: workspace.managementKey, body: {} })).status).toBe(
        200,
      );
    });

    it('answers every operation of the spec called without a body with no 5xx', async () => {
      const { server, workspace } = await setUp();
      for (const { method, template } of specOperations(spec)) {
        const path = template.replace(/\{[^}]+\}/g, '7019b9f2-c5e6-4f46-873e-55a17bb095a3');
        for (const basePath of apiBasePaths(spec)) {
          const response = await rawCall(
            server,
            [
              `${method.toUpperCase()} ${basePath}${path} HTTP/1.1`,
              `Authorization: Bearer ${workspace.managementKey}`,
            ].join('\r\n'),
          );
          expect(response.status, `${method} ${path}`).toBeLessThan(500);
        }
      }
      expect(server.serverErrors()).toEqual([]);
    });
  });

  it('answers a body over 100 KB with 413, and takes one just under it', async () => {
    const { server, workspace, destinationPath } = await setUp();
    const hashes = Array.from({ length: 1000 }, (_, i) => i.toString(16).padStart(64, '0'));
    const under = { api_key_hashes: hashes };
    expect(JSON.stringify(under).length).toBeGreaterThan(60 * 1024);
    expect((await call(server, 'PATCH', destinationPath, { key: workspace.managementKey, body: under })).status).toBe(
      200,
    );
    const over = { name: 'x'.repeat(101 * 1024) };
    expectEnvelope(await call(server, 'PATCH', destinationPath, { key: workspace.managementKey, body: over }), 413);
  });

  it('takes a body of exactly the limit, and answers 413 to one byte more', async () => {
    const { server, workspace, destinationPath } = await setUp();
    const json = JSON.stringify({ sampling_rate: 0.25 });
    const patch = (bytes: number) =>
      call(server, 'PATCH', destinationPath, {
        key: workspace.managementKey,
        headers: { 'content-type': 'application/json' },
        rawBody: json.padEnd(bytes, ' '),
      });
    expect((await patch(BODY_LIMIT_BYTES)).status).toBe(200);
    const over = await patch(BODY_LIMIT_BYTES + 1);
    expectEnvelope(over, 413);
    expect(over.body.error.message).toBe(`Request body is larger than ${BODY_LIMIT_BYTES} bytes.`);
  });

  it('answers an unknown path with 404, inside and outside the API prefix', async () => {
    const { server, workspace } = await setUp();
    expectEnvelope(await call(server, 'GET', '/api/v1/no-such-thing', { key: workspace.managementKey }), 404);
    expectEnvelope(await call(server, 'GET', '/api/v1/keys', { key: workspace.managementKey }), 404);
    expectEnvelope(await call(server, 'GET', '/no-such-thing'), 404);
    expectEnvelope(await call(server, 'GET', '/api/v2/keys/abc', { key: workspace.managementKey }), 404);
  });

  it('answers a path of no operation with 404 whatever it holds, before any key: no check of the spec applies to it', async () => {
    const { server } = await setUp();
    // The template's, but for the trailing slash, which Express's routes (and the validator's) would take.
    expectEnvelope(await call(server, 'GET', '/api/v1/keys/not%20a%20hash/'), 404);
    expectEnvelope(await call(server, 'GET', '/api/v1/KEYS/not%20a%20hash'), 404);
  });

  // Each operation at its path with a trailing slash, and with the path's letters in upper case:
  // Express's routes would match both, the spec matches neither.
  const nearPaths = specOperations(spec).flatMap(({ method, operation, parameters }) => {
    const examples = Object.fromEntries(parameters.map((p) => [p.name, String(p.example ?? p.name)]));
    const path = operationPath(spec, operation.operationId, examples);
    const withBody = operation.requestBody !== undefined;
    return [`${path}/`, path.toUpperCase()].map((near) => [method.toUpperCase(), near, withBody] as const);
  });

  it.each(nearPaths)(
    'answers %s %s, near a path of the spec, with 404 and no server error',
    async (method, path, withBody) => {
      const { server, workspace } = await setUp();
      const body = withBody ? { body: {} } : {};
      expectEnvelope(await call(server, method, path, { key: workspace.managementKey, ...body }), 404);
      expect(server.serverErrors()).toEqual([]);
    },
  );

  // Every path of the spec, called with each method it does not take, its parameters set to their examples.
  // A path takes HEAD where it takes GET (openapi.yaml, "HEAD").
  const methodsNotTaken = Object.keys(spec.paths).flatMap((template) => {
    const entries = specOperations(spec).filter((entry) => entry.template === template);
    const [first] = entries;
    if (!first) return [];
    const examples = Object.fromEntries(first.parameters.map((p) => [p.name, String(p.example ?? p.name)]));
    const path = operationPath(spec, first.operation.operationId, examples);
    const operationMethods = entries.map((entry) => entry.method.toUpperCase());
    const taken = operationMethods.includes('GET') ? [...operationMethods, 'HEAD'] : operationMethods;
    return ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']
      .filter((method) => !taken.includes(method))
      .map((method) => [method, path, taken.sort().join(', ')] as const);
  });

  it.each(methodsNotTaken)('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const { server, workspace } = await setUp();
    const response = await call(server, method, path, { key: workspace.managementKey });
    if (method === 'HEAD') {
      // The envelope's headers, without the envelope.
      expect([response.status, response.body]).toEqual([405, '']);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    } else expectEnvelope(response, 405);
    // In any order: the methods, not their order, are the contract.
    expect((response.headers.get('allow') ?? '').split(', ').sort().join(', ')).toBe(allow);
  });
});

describe('server errors', () => {
  it('answers an unexpected failure with 500 and no internals, and logs it', async () => {
    const { server, workspace } = await setUp((store) => ({
      ...store,
      presets: {
        ...store.presets,
        pageOfVersions: async () => {
          throw new Error('connection to /var/lib/secret-host:5432 failed at Query.run (store.ts:42)');
        },
      },
    }));
    const response = await call(server, 'GET', '/api/v1/presets/demo/versions', { key: workspace.standardKey });
    expectEnvelope(response, 500);
    expect(response.body.error).toEqual({ code: 500, message: 'Internal server error.', metadata: null });
    expect(JSON.stringify(response.body)).not.toMatch(/secret-host|store\.ts|Query\.run/);
    expect(server.serverErrors()).toHaveLength(1);
    server.logs.length = 0;
  });

  it('answers 503 with Retry-After when the database is busy or unreachable', async () => {
    const { server, workspace } = await setUp((store) => ({
      ...store,
      presets: {
        ...store.presets,
        pageOfVersions: async () => {
          throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
        },
      },
    }));
    const response = await call(server, 'GET', '/api/v1/presets/demo/versions', { key: workspace.standardKey });
    expectEnvelope(response, 503);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(server.serverErrors()).toEqual([]);
  });

  it('never lets a response that breaks the contract reach the client: it becomes a 500', async () => {
    const { server, workspace } = await setUp((store) => ({
      ...store,
      keys: {
        ...store.keys,
        findInWorkspaceWithUsage: async (...args: Parameters<Store['keys']['findInWorkspaceWithUsage']>) => {
          const found = await store.keys.findInWorkspaceWithUsage(...args);
          return found && { ...found, limit_reset: 'yearly' as 'daily' };
        },
      },
    }));
    const response = await call(server, 'GET', `/api/v1/keys/${workspace.standardKeyHash}`, {
      key: workspace.managementKey,
    });
    expectEnvelope(response, 500);
    expect(server.serverErrors()).toHaveLength(1);
    server.logs.length = 0;
  });
});

describe('operational endpoints', () => {
  it('serves /healthz, and /readyz while the database answers', async () => {
    const { server } = await setUp();
    expect(await call(server, 'GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await call(server, 'GET', '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('reports not ready with 503 when the database does not answer', async () => {
    const { server } = await setUp((store) => ({
      ...store,
      ping: async () => {
        throw Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' });
      },
    }));
    const response = await call(server, 'GET', '/readyz');
    expectEnvelope(response, 503);
    expect(response.headers.get('retry-after')).toBe('1');
  });

  it('serves the contract as YAML and JSON', async () => {
    const { server } = await setUp();
    const { readFile } = await import('node:fs/promises');
    const { specPath, loadSpec } = await import('../../server/spec.js');
    const yaml = await call(server, 'GET', '/openapi.yaml');
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get('content-type')).toMatch(/yaml/);
    expect(yaml.body).toBe(await readFile(specPath, 'utf8'));
    const json = await call(server, 'GET', '/openapi.json');
    expect(json.body).toEqual(loadSpec());
  });
});
