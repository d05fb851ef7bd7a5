// The request a handler receives from the server (path, validated query with its defaults, the
// header parameters its operation declares, body, caller) and how its result becomes the response.
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.js';
import { hashApiKey } from '../../server/domain/api-keys.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { bindOperations } from '../../server/operations/bind.js';
import { JsonText } from '../../server/operations/json-text.js';
import { listPresetVersions } from '../../server/operations/list-preset-versions.js';
import type { OperationDeps, OperationRequest } from '../../server/operations/types.js';
import { UNREACHABLE_RATE_LIMIT } from '../../server/rate-limit/rate-limit.js';
import { specOperations } from '../../server/spec.js';
import { openStore, type Store } from '../../server/store/store.js';
import type { AnyHandler } from '../../server/validation/operation.js';
import { createTestDatabase } from '../support/database.js';
import { listenOnLoopback } from '../support/listen.js';
import { createWorkspace, destinationTypes, spec, type Workspace } from '../support/server.js';

const NOW = new Date('2026-11-18T12:00:00.000Z');
const DESTINATION_ID = '7019b9f2-c5e6-4f46-873e-55a17bb095a3';
const KEY_TEXT = '{"data": "key"}';

let store: Store;
let workspace: Workspace;
let baseUrl: string;
let closeServer: () => Promise<void>;
let received: unknown[];

/** A handler that keeps the request it gets and answers with the given result. */
const recording =
  (result: { status: number; body: unknown; headers?: Record<string, string> }): AnyHandler =>
  async (request: never) => {
    received.push(request);
    return result;
  };

beforeAll(async () => {
  store = await openStore((await createTestDatabase()).url, createSecretBox(randomBytes(32)));
  workspace = await createWorkspace(store, NOW);
  const app = createApp({
    store,
    clock: () => new Date(NOW),
    logger: pino({ level: 'silent' }),
    spec,
    validateResponses: false,
    rateLimit: UNREACHABLE_RATE_LIMIT,
    authFailureLimit: UNREACHABLE_RATE_LIMIT,
    operations: bindOperations(spec, {
      // Every operation of the spec records what it gets; these three answer in ways the tests read.
      ...Object.fromEntries(
        specOperations(spec).map(({ operation }) => [operation.operationId, recording({ status: 200, body: {} })]),
      ),
      // Written as JSON text, as the store's handlers write it, and sent as it is.
      getKey: recording({ status: 200, body: new JsonText(KEY_TEXT) }),
      updateObservabilityDestination: recording({
        status: 200,
        body: { data: 'destination' },
        headers: { ETag: '"7"' },
      }),
      listPresetVersions: recording({ status: 203, body: { data: [] } }),
    }),
  });
  const listening = await listenOnLoopback(app);
  baseUrl = `${listening.baseUrl}/api/v1`;
  closeServer = listening.close;
});

beforeEach(() => {
  received = [];
});

afterAll(async () => {
  await closeServer();
  await store.close();
});

async function callerOf(rawKey: string) {
  const key = await store.keys.findByHash(hashApiKey(rawKey));
  return { keyId: key?.id, workspaceId: workspace.id, kind: key?.kind };
}

async function send(
  method: string,
  path: string,
  key: string,
  init: { headers?: Record<string, string>; body?: unknown } = {},
) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, etag: response.headers.get('etag'), body: await response.json() };
}

describe('what a handler receives and answers', () => {
  it('gives a handler the header parameters its operation declares and no other, whatever the request sends', async () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const response = await send('GET', `/keys/${workspace.standardKeyHash}`, workspace.managementKey, {
      headers: { 'If-Match': '"1"', traceparent },
    });
    expect(response).toEqual({ status: 200, etag: null, body: { data: 'key' } });
    // getKey declares the trace context's headers, not If-Match.
    expect(received).toEqual([
      {
        path: { hash: workspace.standardKeyHash },
        query: {},
        headers: { traceparent },
        body: undefined,
        caller: await callerOf(workspace.managementKey),
      },
    ]);
  });

  it('sends a body the handler wrote as JSON text as it is, typed as JSON', async () => {
    const response = await fetch(`${baseUrl}/keys/${workspace.standardKeyHash}`, {
      headers: { authorization: `Bearer ${workspace.managementKey}` },
    });
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.text()).toBe(KEY_TEXT);
  });

  it('gives a declared header parameter under its name in the spec, and sets the headers the handler answers with', async () => {
    const response = await send('PATCH', `/observability/destinations/${DESTINATION_ID}`, workspace.managementKey, {
      headers: { 'if-match': '"3"' },
      body: { sampling_rate: 0.5 },
    });
    expect(response).toEqual({ status: 200, etag: '"7"', body: { data: 'destination' } });
    expect(received).toEqual([
      {
        path: { id: DESTINATION_ID },
        query: {},
        headers: { 'If-Match': '"3"' },
        body: { sampling_rate: 0.5 },
        caller: await callerOf(workspace.managementKey),
      },
    ]);
  });

  it('gives an empty set of headers when a declared header parameter is not sent', async () => {
    await send('PATCH', `/observability/destinations/${DESTINATION_ID}`, workspace.managementKey, { body: {} });
    expect(received).toEqual([expect.objectContaining({ headers: {}, body: {} })]);
  });

  it('answers with the status the handler returns, and gives it the query with the defaults of the spec', async () => {
    const response = await send('GET', '/presets/support-agent/versions?offset=2', workspace.standardKey);
    expect(response).toEqual({ status: 203, etag: null, body: { data: [] } });
    expect(received).toEqual([
      {
        path: { slug: 'support-agent' },
        query: { offset: 2, limit: 50 },
        headers: {},
        body: undefined,
        caller: await callerOf(workspace.standardKey),
      },
    ]);
  });
});

describe('listPresetVersions', () => {
  it('fails, naming the parameter, when called without the limit the validator fills in', async () => {
    const request = {
      path: { slug: 'support-agent' },
      query: {},
      headers: undefined,
      body: undefined as never,
      caller: { keyId: 'key', workspaceId: workspace.id, kind: 'management' },
      trace: undefined,
    } satisfies OperationRequest<'listPresetVersions'>;
    const deps: OperationDeps = { store, clock: () => new Date(NOW), contractVersion: '2.3.0', destinationTypes };
    await expect(listPresetVersions(request, deps)).rejects.toThrow(
      new Error('parameter limit has no value: its default from the spec was not applied'),
    );
  });
});
