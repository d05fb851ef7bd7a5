// The error examples of openapi.yaml are what the server says: for each operation and each error
// status it documents, every example (what the mock serves, what the docs show) is answered word
// for word by the real server to a request that causes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { operations } from '../../generated/api.js';
import { operationPath, specOperations } from '../../server/spec.js';
import type { Store } from '../../server/store/store.js';
import {
  type CallResult,
  call,
  createWorkspace,
  provision,
  rawCall,
  startTestServer,
  type TestServer,
  type Workspace,
} from '../support/server.js';
import { documentedCacheControl, findOperation, resolveRef, spec } from '../support/spec.js';

type Json = Record<string, unknown>;

interface Setting {
  /** An ordinary server. */
  server: TestServer;
  workspace: Workspace;
  destinationId: string;
  /** Servers whose key lookup fails: with a bug (500), or because the database is unreachable (503). */
  failing: { bug: Setting['server']; unreachable: Setting['server'] };
  /** A server that allows one request per key and window. */
  limited: { server: TestServer; workspace: Workspace };
}

type Trigger = (setting: Setting) => Promise<CallResult | { status: number; body: unknown }>;

let setting: Setting;
const servers: TestServer[] = [];

async function serverWith(options: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer(options);
  servers.push(server);
  return { server, workspace: await createWorkspace(server.store, server.clock.now()) };
}

function failingKeyLookup(error: Error): (store: Store) => Store {
  return (store) => ({
    ...store,
    keys: {
      ...store.keys,
      findByHash: async () => {
        throw error;
      },
    },
  });
}

beforeAll(async () => {
  const { server, workspace } = await serverWith();
  const destination = await provision.createDestination(
    server.store,
    {
      workspaceId: workspace.id,
      type: 'langfuse',
      name: 'Langfuse',
      config: { publicKey: 'pk-lf-1234567890abcd', secretKey: 'sk-lf-1234567890abcd' },
    },
    server.clock.now(),
  );
  setting = {
    server,
    workspace,
    destinationId: destination.id,
    failing: {
      bug: (await serverWith({ store: failingKeyLookup(new Error('a bug')) })).server,
      unreachable: (
        await serverWith({
          store: failingKeyLookup(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
        })
      ).server,
    },
    limited: await serverWith({ rateLimit: { windowMs: 60_000, limit: 1 } }),
  };
});

afterAll(async () => {
  for (const server of servers) server.logs.length = 0;
  await Promise.all(servers.map((server) => server.close()));
});

const UNKNOWN_ID = '7019b9f2-c5e6-4f46-873e-55a17bb095a3';
/** The path of an operation on the setting's objects, by the name of each path parameter. */
const pathOf = (operationId: keyof operations) => (s: Setting) =>
  operationPath(spec, operationId, { hash: s.workspace.standardKeyHash, id: s.destinationId, slug: 'support-agent' });
const paths = Object.fromEntries(
  specOperations(spec).map(({ operation }) => [
    operation.operationId,
    pathOf(operation.operationId as keyof operations),
  ]),
) as Record<keyof operations, (s: Setting) => string>;
const methods = Object.fromEntries(
  specOperations(spec).map(({ operation, method }) => [operation.operationId, method.toUpperCase()]),
) as Record<keyof operations, string>;

/** The errors every operation shares, each caused on the given operation. */
function commonTriggers(operationId: keyof operations): Record<string, Record<string, Trigger>> {
  const method = methods[operationId];
  const body = method === 'PATCH' ? { body: {} } : {};
  const send = (server: TestServer, key: string | undefined, path: string, extra: Json = {}) =>
    call(server, method, path, { ...(key !== undefined && { key }), ...body, ...extra });
  return {
    '401': {
      missing: (s) => send(s.server, undefined, paths[operationId](s)),
      malformed: (s) => send(s.server, 'not-a-key', paths[operationId](s)),
      invalid: (s) => send(s.server, `sk-or-v1-${'0'.repeat(64)}`, paths[operationId](s)),
    },
    '429': {
      example: async (s) => {
        const path = paths[operationId]({ ...s, workspace: s.limited.workspace });
        await send(s.limited.server, s.limited.workspace.managementKey, path);
        return send(s.limited.server, s.limited.workspace.managementKey, path);
      },
    },
    '500': { example: (s) => send(s.failing.bug, s.workspace.managementKey, paths[operationId](s)) },
    '503': { example: (s) => send(s.failing.unreachable, s.workspace.managementKey, paths[operationId](s)) },
  };
}

const patch = (s: Setting, body: unknown, headers: Record<string, string> = {}) =>
  call(s.server, 'PATCH', paths.updateObservabilityDestination(s), { key: s.workspace.managementKey, body, headers });
const rule = (r: Json) => ({ filter_rules: { groups: [{ rules: [r] }] } });

const triggers: { [K in keyof operations]: Record<string, Record<string, Trigger>> } = {
  getKey: {
    ...commonTriggers('getKey'),
    '400': {
      example: (s) => call(s.server, 'GET', `${paths.getKey(s)}?fields=name`, { key: s.workspace.managementKey }),
    },
    '403': { example: (s) => call(s.server, 'GET', paths.getKey(s), { key: s.workspace.standardKey }) },
    '404': {
      example: (s) => call(s.server, 'GET', `/api/v1/keys/${'f'.repeat(64)}`, { key: s.workspace.managementKey }),
    },
  },
  updateObservabilityDestination: {
    ...commonTriggers('updateObservabilityDestination'),
    '400': {
      samplingRateAboveMaximum: (s) => patch(s, { sampling_rate: 1.5 }),
      severalFields: (s) => patch(s, { sampling_rate: 'high', enabled: 'yes', name: '' }),
      operatorNeedsNumber: (s) => patch(s, rule({ field: 'total_cost', operator: 'gt', value: 'cheap' })),
      configKeyOfAnotherType: (s) => patch(s, { config: { spaceKey: 'sk-space-1234567890' } }),
      bodyMissing: (s) =>
        rawCall(
          s.server,
          [
            `PATCH ${paths.updateObservabilityDestination(s)} HTTP/1.1`,
            `Authorization: Bearer ${s.workspace.managementKey}`,
            'Content-Type: application/json',
          ].join('\r\n'),
        ),
    },
    '403': {
      example: (s) =>
        call(s.server, 'PATCH', paths.updateObservabilityDestination(s), { key: s.workspace.standardKey, body: {} }),
    },
    '404': {
      example: (s) =>
        call(s.server, 'PATCH', `/api/v1/observability/destinations/${UNKNOWN_ID}`, {
          key: s.workspace.managementKey,
          body: {},
        }),
    },
    '412': { example: (s) => patch(s, { name: 'Stale' }, { 'if-match': '"r0"' }) },
    '413': { example: (s) => patch(s, { name: 'x'.repeat(101 * 1024) }) },
    '415': {
      example: (s) =>
        call(s.server, 'PATCH', paths.updateObservabilityDestination(s), {
          key: s.workspace.managementKey,
          rawBody: 'name=x',
          headers: { 'content-type': 'text/plain' },
        }),
    },
  },
  listPresetVersions: {
    ...commonTriggers('listPresetVersions'),
    '400': {
      limitAboveMaximum: (s) =>
        call(s.server, 'GET', '/api/v1/presets/support-agent/versions?limit=101', { key: s.workspace.standardKey }),
      offsetNotDigits: (s) =>
        call(s.server, 'GET', '/api/v1/presets/support-agent/versions?offset=1e2', { key: s.workspace.standardKey }),
    },
    '404': {
      example: (s) =>
        call(s.server, 'GET', '/api/v1/presets/no-such-preset/versions', { key: s.workspace.standardKey }),
    },
  },
};

/** The error examples of an operation (4xx and 5xx; a 304 is no error), by status and example name (`example` for a lone one). */
function documentedErrors(operationId: string): Record<string, Record<string, unknown>> {
  const { operation } = findOperation(operationId);
  return Object.fromEntries(
    Object.entries(operation.responses)
      .filter(([status]) => Number(status) >= 400)
      .map(([status, response]) => {
        const content = (
          resolveRef(response).content as Record<
            string,
            { example?: unknown; examples?: Record<string, { value: unknown }> }
          >
        )['application/json'];
        const examples =
          content?.example !== undefined
            ? { example: content.example }
            : Object.fromEntries(Object.entries(content?.examples ?? {}).map(([name, e]) => [name, e.value]));
        return [status, examples];
      }),
  );
}

describe('the error examples of openapi.yaml', () => {
  it.each(Object.keys(triggers))(
    '%s: every documented error example has a request that causes it here',
    (operationId) => {
      const documented = documentedErrors(operationId);
      const caused = triggers[operationId as keyof operations];
      expect(Object.keys(caused).sort()).toEqual(Object.keys(documented).sort());
      for (const [status, examples] of Object.entries(documented))
        expect(Object.keys(caused[status] ?? {}).sort(), status).toEqual(Object.keys(examples).sort());
    },
  );

  it.each(Object.keys(triggers))('%s: the server answers each of them word for word', async (operationId) => {
    for (const [status, examples] of Object.entries(documentedErrors(operationId))) {
      for (const [name, example] of Object.entries(examples)) {
        const trigger = triggers[operationId as keyof operations][status]?.[name];
        if (!trigger) throw new Error(`no trigger for ${operationId} ${status} ${name}`);
        const response = await trigger(setting);
        expect(response.status, `${operationId} ${status} ${name}`).toBe(Number(status));
        expect(response.body, `${operationId} ${status} ${name}`).toEqual(example);
        // Its Cache-Control too, where the request was made with fetch (a raw one keeps no headers).
        if ('headers' in response)
          expect(response.headers.get('cache-control'), `${operationId} ${status} ${name}`).toBe(
            documentedCacheControl(operationId, status),
          );
      }
    }
  });

  it('speak, in each 400, of the operation’s own fields, or of a query parameter it does not take', () => {
    for (const operationId of Object.keys(triggers)) {
      const { operation, parameters } = findOperation(operationId);
      const examples = documentedErrors(operationId)['400'] ?? {};
      const own = new Set(parameters.map((p) => `/${p.in}/${p.name}`));
      const bodySchema = operation.requestBody?.content['application/json']?.schema;
      const bodyProperties = bodySchema ? Object.keys((resolveRef(bodySchema).properties ?? {}) as Json) : [];
      if (bodySchema) own.add('/body');
      for (const property of bodyProperties) own.add(`/body/${property}`);
      for (const example of Object.values(examples)) {
        const errors = (example as { error: { metadata: { errors: { path: string; message: string }[] } } }).error
          .metadata.errors;
        for (const { path, message } of errors) {
          const field = path.split('/').slice(0, 3).join('/');
          const unknown = path.startsWith('/query/') && !own.has(path) && message.startsWith('Unknown query parameter');
          expect(own.has(field) || own.has(path) || unknown, `${operationId}: ${path}`).toBe(true);
        }
      }
    }
  });
});
