// HEAD on every GET operation of the spec (openapi.yaml, "HEAD"): answered as the GET, through the
// same checks and rate limit, with the same status and headers and no body; and its answer checked
// against the contract as the GET's is.
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { bindOperations } from '../../server/operations/bind.js';
import { type DemoSeed, seedDemo } from '../../server/provisioning/demo.js';
import { UNREACHABLE_RATE_LIMIT } from '../../server/rate-limit/rate-limit.js';
import { type OpenApiDocument, type OpenApiOperation, operationPath, specOperations } from '../../server/spec.js';
import { openStore } from '../../server/store/store.js';
import { OperationTable } from '../../server/validation/operation-match.js';
import { validatorOptions } from '../../server/validation/validator.js';
import { createTestDatabase } from '../support/database.js';
import { listenOnLoopback } from '../support/listen.js';
import {
  type CallResult,
  call,
  createWorkspace,
  provision,
  spec,
  startTestServer,
  type TestServer,
  type Workspace,
} from '../support/server.js';

const getOperations = specOperations(spec).filter((entry) => entry.method === 'get');

/** Headers that differ from one answer to the next whatever the method: when, to which request, the connection (fetch closes it after a HEAD). */
const PER_ANSWER = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);

/** The quota left that a RateLimit header states (`"per-key"; r=<remaining>; t=<seconds>`). */
const remaining = (headers: Headers) => Number(/;\s*r=(\d+)/.exec(headers.get('ratelimit') ?? '')?.[1]);

/** The headers to compare, the remaining quota and the seconds to the reset of RateLimit left out. */
function comparable(headers: Headers): Record<string, string> {
  return Object.fromEntries(
    [...headers]
      .filter(([name]) => !PER_ANSWER.has(name))
      .map(([name, value]) => [name, name === 'ratelimit' ? value.replace(/;\s*[rt]=\d+/g, '') : value]),
  );
}

/** Sends the GET, then the HEAD of the same request, and checks that the HEAD answered as the GET did, bodiless. */
async function expectHeadAnsweredAsGet(
  server: TestServer,
  path: string,
  key: string | undefined,
  status: number,
): Promise<{ get: CallResult; head: CallResult }> {
  const options = key === undefined ? {} : { key };
  const get = await call(server, 'GET', path, options);
  const head = await call(server, 'HEAD', path, options);
  expect(get.status).toBe(status);
  expect(head.status).toBe(status);
  expect(head.body).toBe('');
  expect(comparable(head.headers)).toEqual(comparable(get.headers));
  expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(JSON.stringify(get.body)));
  // The HEAD took one more request of the key's quota, as a second GET would.
  if (get.headers.has('ratelimit')) expect(remaining(head.headers)).toBe(Math.max(0, remaining(get.headers) - 1));
  return { get, head };
}

/** The key kinds an operation accepts, from its security requirements. */
function acceptedKinds(operation: OpenApiOperation): string[] {
  return (operation.security ?? spec.security ?? []).flatMap((requirement) => Object.values(requirement).flat());
}

const keyOf = (operation: OpenApiOperation, keys: { managementKey: string; standardKey: string }) =>
  acceptedKinds(operation).includes('management') ? keys.managementKey : keys.standardKey;

/** The path of a GET operation on the demo workspace's objects, by the name of each path parameter. */
const seededPath = (operationId: string, seed: DemoSeed) =>
  operationPath(spec, operationId, { hash: seed.key_hash, id: seed.destination_id, slug: seed.preset_slug });

describe('HEAD on each GET operation of the spec', () => {
  let server: TestServer;
  let seed: DemoSeed;
  let other: Workspace;

  beforeAll(async () => {
    server = await startTestServer();
    seed = await seedDemo(server.store, provision, server.clock.now());
    other = await createWorkspace(server.store, server.clock.now(), 'Other workspace');
  });

  afterAll(async () => {
    expect(server.serverErrors()).toEqual([]);
    await server.close();
  });

  it('has GET operations to answer HEAD for', () => {
    expect(getOperations.length).toBeGreaterThan(0);
  });

  const operationIds = getOperations.map(({ operation }) => [operation.operationId, operation] as const);
  const demoKeys = (s: DemoSeed) => ({ managementKey: s.management_key, standardKey: s.standard_key });

  it.each(operationIds)('%s: 200, as GET without the body', async (operationId, operation) => {
    const { head } = await expectHeadAnsweredAsGet(
      server,
      seededPath(operationId, seed),
      keyOf(operation, demoKeys(seed)),
      200,
    );
    expect(head.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it.each(operationIds)('%s: 401 without a key, WWW-Authenticate included', async (operationId) => {
    const { head } = await expectHeadAnsweredAsGet(server, seededPath(operationId, seed), undefined, 401);
    expect(head.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it.each(operationIds)('%s: 404 for another workspace', async (operationId, operation) => {
    await expectHeadAnsweredAsGet(server, seededPath(operationId, seed), keyOf(operation, other), 404);
  });

  it.each(operationIds)('%s: 400 for a query parameter the contract does not take', async (operationId, operation) => {
    await expectHeadAnsweredAsGet(
      server,
      `${seededPath(operationId, seed)}?no_such_parameter=1`,
      keyOf(operation, demoKeys(seed)),
      400,
    );
  });
});

describe('HEAD and the rate limit', () => {
  it.each(getOperations.map(({ operation }) => [operation.operationId, operation] as const))(
    '%s: a HEAD takes a request of the quota, and past it answers the 429 of a GET',
    async (operationId, operation) => {
      const server = await startTestServer({ rateLimit: { windowMs: 60_000, limit: 1 } });
      try {
        const seed = await seedDemo(server.store, provision, server.clock.now());
        const path = seededPath(operationId, seed);
        const key = keyOf(operation, { managementKey: seed.management_key, standardKey: seed.standard_key });
        expect((await call(server, 'HEAD', path, { key })).status).toBe(200);
        const { head } = await expectHeadAnsweredAsGet(server, path, key, 429);
        expect(Number(head.headers.get('retry-after'))).toBeGreaterThan(0);
      } finally {
        await server.close();
      }
    },
  );
});

describe('the answer to a HEAD', () => {
  it('is checked against the responses of its GET: one that breaks them is a 500, as for the GET', async () => {
    const database = await createTestDatabase();
    const store = await openStore(database.url, createSecretBox(randomBytes(32)));
    const workspace = await createWorkspace(store, new Date('2026-11-18T12:00:00.000Z'));
    const errors: string[] = [];
    const app = createApp({
      store,
      clock: () => new Date('2026-11-18T12:00:00.000Z'),
      logger: pino({ level: 'error' }, { write: (line: string) => void errors.push(line) }),
      spec,
      validateResponses: true,
      rateLimit: UNREACHABLE_RATE_LIMIT,
      authFailureLimit: UNREACHABLE_RATE_LIMIT,
      operations: bindOperations(
        spec,
        Object.fromEntries(
          specOperations(spec).map(({ operation }) => [
            operation.operationId,
            async () => ({ status: 200, body: { data: 'not what the contract says' } }),
          ]),
        ),
      ),
    });
    const listening = await listenOnLoopback(app);
    try {
      for (const { operation } of getOperations) {
        const path = operationPath(spec, operation.operationId, {
          hash: workspace.standardKeyHash,
          id: '7019b9f2-c5e6-4f46-873e-55a17bb095a3',
          slug: 'support-agent',
        });
        const send = (method: string) =>
          fetch(`${listening.baseUrl}${path}`, {
            method,
            headers: { authorization: `Bearer ${keyOf(operation, workspace)}` },
          });
        const [get, head] = [await send('GET'), await send('HEAD')];
        expect([get.status, head.status], operation.operationId).toEqual([500, 500]);
        expect(await head.text()).toBe('');
      }
      expect(errors).toHaveLength(2 * getOperations.length);
    } finally {
      await listening.close();
      await store.close();
      await database.drop();
    }
  });
});

describe('a path with a HEAD operation of its own', () => {
  const ok = {
    '200': {
      description: 'OK.',
      headers: { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } },
    },
  };
  const ownHead = {
    ...spec,
    security: [{ bearerAuth: ['management'] }],
    paths: {
      '/things': {
        get: { operationId: 'listThings', responses: ok },
        head: { operationId: 'countThings', responses: ok },
      },
      '/other': { get: { operationId: 'listOther', responses: ok } },
    },
  } as unknown as OpenApiDocument;
  const handler = async () => ({ status: 200, body: {} });
  const table = new OperationTable(
    ownHead,
    bindOperations(ownHead, { listThings: handler, countThings: handler, listOther: handler }),
  );

  it('keeps it: a HEAD request is for it, not for the GET', () => {
    expect(table.find('HEAD', '/api/v1/things')?.operation.id).toBe('countThings');
    expect(table.find('HEAD', '/api/v1/other')?.operation.id).toBe('listOther');
    expect(table.find('GET', '/api/v1/things')?.operation.id).toBe('listThings');
    // Only HEAD is answered as GET.
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
      expect(table.find(method, '/api/v1/other')).toBeUndefined();
  });

  it("is left as written in the validator's copy of the spec, which the match hands a HEAD as its GET", () => {
    const copy = validatorOptions(ownHead, false).apiSpec as unknown as OpenApiDocument;
    expect(copy.paths['/things']?.head?.operationId).toBe('countThings');
    expect(copy.paths['/other']?.head).toBeUndefined();
    expect(table.allowedMethods('/api/v1/other')).toEqual(['HEAD', 'GET']);
    expect(ownHead.paths['/other']?.head).toBeUndefined();
  });
});
