// The same data, the same clock and the same requests give the same bytes on SQLite and on
// PostgreSQL (identifiers, which each run draws at random, are numbered in order of appearance).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordUsage } from '../../server/provisioning/provision.js';
import { provision, startTestServer, type TestServer } from '../support/server.js';

interface Side {
  server: TestServer;
  managementKey: string;
  standardKey: string;
  keyHash: string;
  destinationId: string;
}

async function provisionDatabase(databaseUrl?: string): Promise<Side> {
  const server = await startTestServer(databaseUrl ? { databaseUrl } : {});
  const now = server.clock.now();
  const workspace = await server.store.workspaces.create('Same', now);
  const management = await provision.createKey(
    server.store,
    { workspaceId: workspace.id, name: 'Admin', kind: 'management' },
    now,
  );
  const standard = await provision.createKey(
    server.store,
    {
      workspaceId: workspace.id,
      name: 'Std',
      kind: 'standard',
      limit: 12.5,
      limitReset: 'weekly',
      includeByokInLimit: true,
    },
    now,
  );
  for (const [day, amount, byok] of [
    ['2026-11-18', 1.1, false],
    ['2026-11-16', 2.2, true],
    ['2026-11-02', 3.3, false],
  ] as const) {
    await recordUsage(server.store, { keyHash: standard.hash, amount, byok, at: new Date(`${day}T10:00:00Z`) });
  }
  const destination = await provision.createDestination(
    server.store,
    {
      workspaceId: workspace.id,
      type: 'webhook',
      name: null,
      config: { url: 'https://hooks.example.com', headers: { 'X-Token': 'token-value-0123456789' } },
      sampling_rate: 0.3333,
    },
    now,
  );
  for (let i = 1; i <= 4; i++) {
    await provision.addPresetVersion(
      server.store,
      {
        workspaceId: workspace.id,
        slug: 'same',
        config: { model: 'm/x', temperature: i / 3, extra: { nested: [i, null, 'é'] } } as never,
        systemPrompt: i % 2 ? null : `Prompt ${i} ✓`,
        creatorId: 'u',
      },
      now,
    );
  }
  return {
    server,
    managementKey: management.rawKey,
    standardKey: standard.rawKey,
    keyHash: standard.hash,
    destinationId: destination.id,
  };
}

let sqlite: Side;
let postgres: Side;

beforeAll(async () => {
  sqlite = await provisionDatabase('sqlite::memory:');
  postgres = await provisionDatabase();
});

afterAll(async () => {
  await sqlite?.server.close();
  await postgres?.server.close();
});

function normalise(text: string): string {
  const seen = new Map<string, string>();
  return text.replace(
    /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{64}|sk-or-v1-[0-9a-f]{3}\.\.\.[0-9a-f]{4}/g,
    (match) => {
      if (!seen.has(match)) seen.set(match, `<id${seen.size}>`);
      return seen.get(match) ?? match;
    },
  );
}

async function exchange(side: Side) {
  const requests: [string, string, { key: string; body?: unknown; headers?: Record<string, string> }][] = [
    ['GET', `/api/v1/keys/${side.keyHash}`, { key: side.managementKey }],
    ['PATCH', `/api/v1/observability/destinations/${side.destinationId}`, { key: side.managementKey, body: {} }],
    [
      'PATCH',
      `/api/v1/observability/destinations/${side.destinationId}`,
      {
        key: side.managementKey,
        body: {
          enabled: false,
          api_key_hashes: ['a', 'b'],
          filter_rules: { groups: [{ rules: [{ field: 'total_cost', operator: 'gte', value: 0.5 }] }] },
        },
      },
    ],
    [
      'PATCH',
      `/api/v1/observability/destinations/${side.destinationId}`,
      { key: side.managementKey, body: { name: 'x' }, headers: { 'if-match': '"r1"' } },
    ],
    ['GET', '/api/v1/presets/same/versions?offset=1&limit=2', { key: side.standardKey }],
    ['GET', '/api/v1/presets/same/versions', { key: side.standardKey }],
    ['GET', '/api/v1/presets/other/versions', { key: side.standardKey }],
    ['GET', `/api/v1/keys/${side.keyHash}`, { key: side.standardKey }],
  ];
  const transcript: string[] = [];
  for (const [method, path, options] of requests) {
    const response = await fetch(`${side.server.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${options.key}`,
        ...(options.body !== undefined && { 'content-type': 'application/json' }),
        ...options.headers,
      },
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
    });
    // A page's tag is a hash of its preset's id, which differs between the two databases as the ids do.
    const etag = (response.headers.get('etag') ?? '').replace(/^"[A-Za-z0-9_-]{32}"$/, '<page tag>');
    transcript.push(
      `${method} ${response.status} ${etag} ${response.headers.get('content-type')}\n${await response.text()}`,
    );
  }
  return normalise(transcript.join('\n'));
}

describe('identical output on SQLite and PostgreSQL', () => {
  it('answers the same requests on the same data with the same bytes', async () => {
    const [onSqlite, onPostgres] = [await exchange(sqlite), await exchange(postgres)];
    expect(onPostgres).toBe(onSqlite);
    expect(onSqlite).toContain('"limit_remaining"');
    expect(onSqlite).toContain('GET 200 <page tag> ');
  });
});
