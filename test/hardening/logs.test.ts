// A whole session of requests, errors included, then a search of its logs for every secret used.
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, provision, startTestServer } from '../support/server.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

const server = useTestServer();
const workspace = useWorkspace(server);
const SECRETS = [
  'pk-lf-LOGCANARY-public-0001',
  'sk-lf-LOGCANARY-secret-0002',
  'sk-lf-LOGCANARY-rotated-0003',
  'hdr-LOGCANARY-0004',
];
const WRONG_KEY = `sk-or-v1-${'c'.repeat(64)}`;
const responses: { requestId: string | null; status: number }[] = [];

beforeAll(async () => {
  const destination = await provision.createDestination(
    server.store,
    {
      workspaceId: workspace.id,
      type: 'langfuse',
      name: 'Logged',
      config: { publicKey: SECRETS[0] ?? '', secretKey: SECRETS[1] ?? '' },
    },
    server.clock.now(),
  );
  const path = `/api/v1/observability/destinations/${destination.id}`;
  const session: Parameters<typeof call>[] = [
    [
      server,
      'GET',
      `/api/v1/keys/${workspace.standardKeyHash}`,
      { key: workspace.managementKey, headers: { 'x-request-id': 'client-chosen.id-42' } },
    ],
    [server, 'PATCH', path, { key: workspace.managementKey, body: { config: { secretKey: SECRETS[2] } } }],
    [server, 'PATCH', path, { key: workspace.managementKey, body: { config: { secretKey: 'sk-l...0000' } } }],
    [
      server,
      'PATCH',
      path,
      {
        key: workspace.managementKey,
        rawBody: `{"config":{"secretKey":"${SECRETS[3]}"`,
        headers: { 'content-type': 'application/json' },
      },
    ],
    [server, 'PATCH', path, { key: workspace.standardKey, body: { config: { secretKey: SECRETS[3] } } }],
    [
      server,
      'GET',
      '/api/v1/presets/none/versions',
      { key: WRONG_KEY, headers: { 'x-request-id': 'bad id with spaces\u00e9' } },
    ],
    [server, 'GET', '/api/v1/presets/none/versions?limit=0', { key: workspace.standardKey }],
    [
      server,
      'GET',
      '/api/v1/presets/none/versions',
      { headers: { authorization: `Basic ${Buffer.from(`user:${SECRETS[3]}`).toString('base64')}` } },
    ],
    [server, 'DELETE', path, { key: workspace.managementKey }],
  ];
  for (const args of session) {
    const response = await call(...args);
    responses.push({ requestId: response.headers.get('x-request-id'), status: response.status });
  }
});

describe('request logs', () => {
  it('writes one JSON line per request, with its id', () => {
    const requestLines = server.logs.filter(
      (entry) => typeof (entry.req as { id?: string } | undefined)?.id === 'string' && entry.res,
    );
    expect(requestLines).toHaveLength(responses.length);
    expect(requestLines.map((line) => (line.req as { id: string }).id)).toEqual(responses.map((r) => r.requestId));
    expect(requestLines.map((line) => (line.res as { status: number }).status)).toEqual(responses.map((r) => r.status));
  });

  it('accepts a well-formed X-Request-Id and replaces a malformed one', () => {
    expect(responses[0]?.requestId).toBe('client-chosen.id-42');
    expect(responses[5]?.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('never contains the Authorization header, a key or a secret config value', () => {
    const text = JSON.stringify(server.logs);
    expect(text.length).toBeGreaterThan(500);
    for (const secret of [workspace.managementKey, workspace.standardKey, WRONG_KEY, ...SECRETS, 'LOGCANARY'])
      expect(text).not.toContain(secret);
    expect(text.toLowerCase()).not.toContain('authorization');
    expect(text).not.toContain('Bearer');
    expect(text).not.toContain('Basic ');
  });

  it('logs a request the client abandoned before the answer, as a warning marked aborted', async () => {
    // Authentication waits until the test lets it go, so that the client is gone before the answer is written.
    let lookupStarted: () => void = () => undefined;
    const looking = new Promise<void>((resolve) => (lookupStarted = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = await startTestServer({
      store: (store) => ({
        ...store,
        keys: {
          ...store.keys,
          findByHash: async (hash) => {
            lookupStarted();
            await released;
            return store.keys.findByHash(hash);
          },
        },
      }),
    });
    try {
      const { port } = new URL(slow.baseUrl);
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `GET /api/v1/presets/none/versions HTTP/1.1\r\nHost: t\r\nX-Request-Id: abandoned-1\r\nAuthorization: Bearer ${WRONG_KEY}\r\n\r\n`,
      );
      await looking;
      socket.destroy();
      await expect
        .poll(() => slow.logs.find((entry) => (entry.req as { id?: string } | undefined)?.id === 'abandoned-1'))
        .toMatchObject({ level: 40, aborted: true });
    } finally {
      release();
      await slow.close();
    }
  });
});
