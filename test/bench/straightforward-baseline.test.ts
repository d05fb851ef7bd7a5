// The benchmark's straightforward baseline (bench/servers/straightforward.ts) answers what the
// server answers: on one database seeded as `npm run bench` seeds it, both servers, each in a
// process of its own, get the same requests and give the same status and the same body, so that
// the ratio of the benchmark compares the cost of the same answers. On SQLite, and on PostgreSQL in
// the `postgres` project, where the baseline runs its pool, its named queries and its locking PATCH.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_SCRIPTS } from '../../bench/shared/hostile.js';
import { runToEnd, type Started, startServer, stopServer } from '../../bench/shared/processes.js';
import type { components } from '../../generated/api.js';
import { escapePointer, nodeAt, operationPath } from '../../server/spec.js';
import { createPostgresDatabase, type TestDatabase, testDatabaseKind } from '../support/database.js';
import { findOperation, requestBodySchema, spec } from '../support/spec.js';

type DestinationUpdate = components['schemas']['ObservabilityDestinationUpdate'];
type DestinationResponse = components['schemas']['ObservabilityDestinationResponse'];

interface Answer {
  status: number;
  etag: string | null;
  body: string;
}

const SEEDED_ROWS = 2000;
let subject: Started;
let straightforward: Started;
let seeded: { managementKey: string; idleKeyHash: string; busyKeyHash: string; destinationId: string };
let postgres: TestDatabase | undefined;

beforeAll(async () => {
  const secretsKey = randomBytes(32).toString('hex');
  if (testDatabaseKind === 'postgres') postgres = await createPostgresDatabase();
  const databaseUrl = postgres?.url ?? `sqlite:${join(mkdtempSync(join(tmpdir(), 'straightforward-db-')), 'api.db')}`;
  const env = { BENCH_SECRETS_KEY: secretsKey };
  // A key with usage over three years of days, and a preset of that many versions: sums and pages of real data.
  seeded = JSON.parse(
    await runToEnd('bench/servers/seed.ts', [databaseUrl, String(SEEDED_ROWS)], env, SOURCE_SCRIPTS.nodeFlags),
  ) as typeof seeded;
  [subject, straightforward] = await Promise.all([
    startServer('bench/servers/subject.ts', [databaseUrl], env, SOURCE_SCRIPTS.nodeFlags),
    startServer('bench/servers/straightforward.ts', [databaseUrl], env, SOURCE_SCRIPTS.nodeFlags),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([subject, straightforward].filter(Boolean).map(stopServer));
  await postgres?.drop();
});

async function ask(
  server: Started,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    method,
    headers: { authorization: `Bearer ${seeded.managementKey}`, 'content-type': 'application/json', ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, etag: response.headers.get('etag'), body: await response.text() };
}

/** The status the spec gives the operation's success: the one 2xx of its responses. */
function successStatus(operationId: string): number {
  const statuses = Object.keys(findOperation(operationId).operation.responses ?? {}).filter((s) => s.startsWith('2'));
  expect(statuses).toHaveLength(1);
  return Number(statuses[0]);
}

function documented(operationId: string, status: number): boolean {
  return Object.keys(findOperation(operationId).operation.responses ?? {}).includes(String(status));
}

describe('the same GET on the same data', () => {
  const gets = () => [
    ['getKey', operationPath(spec, 'getKey', { hash: seeded.idleKeyHash })],
    ['getKey', operationPath(spec, 'getKey', { hash: seeded.busyKeyHash })],
    // The page the benchmark measures, a later one, one past the end, and the default.
    ['listPresetVersions', `${operationPath(spec, 'listPresetVersions', { slug: 'small' })}?limit=50`],
    ['listPresetVersions', `${operationPath(spec, 'listPresetVersions', { slug: 'small' })}?offset=90&limit=20`],
    ['listPresetVersions', `${operationPath(spec, 'listPresetVersions', { slug: 'small' })}?offset=100`],
    ['listPresetVersions', operationPath(spec, 'listPresetVersions', { slug: 'small' })],
    ['listPresetVersions', `${operationPath(spec, 'listPresetVersions', { slug: 'huge' })}?offset=1950&limit=100`],
  ];

  it('answers the same status and the same bytes', async () => {
    for (const [operationId, path] of gets() as [string, string][]) {
      const [fromSubject, fromStraightforward] = [
        await ask(subject, 'GET', path),
        await ask(straightforward, 'GET', path),
      ];
      expect(fromSubject.status, path).toBe(successStatus(operationId));
      expect(fromStraightforward, path).toEqual(fromSubject);
    }
  });

  it('holds what was seeded: the comparison is of real data', async () => {
    const firstPage = `${operationPath(spec, 'listPresetVersions', { slug: 'small' })}?limit=50`;
    const page = JSON.parse((await ask(straightforward, 'GET', firstPage)).body) as {
      data: { version: number }[];
      total_count: number;
    };
    expect(page.data.map((v) => v.version)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(page.total_count).toBe(100);
    const busy = JSON.parse(
      (await ask(straightforward, 'GET', operationPath(spec, 'getKey', { hash: seeded.busyKeyHash }))).body,
    ) as components['schemas']['ApiKeyResponse'];
    expect(busy.data.usage_monthly).toBeGreaterThan(0);
    expect(busy.data.usage_weekly).toBeGreaterThan(0);
    expect(busy.data.limit_remaining).toBeGreaterThan(0);
    expect(busy.data.limit_remaining).toBeLessThan(busy.data.limit ?? 0);
  });

  it('answers a hash, a slug and an id of no row alike', async () => {
    const absent: [string, string, string, unknown?][] = [
      ['getKey', 'GET', operationPath(spec, 'getKey', { hash: '0'.repeat(64) })],
      ['listPresetVersions', 'GET', operationPath(spec, 'listPresetVersions', { slug: 'absent' })],
      [
        'updateObservabilityDestination',
        'PATCH',
        operationPath(spec, 'updateObservabilityDestination', { id: '00000000-0000-4000-8000-000000000000' }),
        {},
      ],
    ];
    for (const [operationId, method, path, body] of absent) {
      const fromSubject = await ask(subject, method, path, body);
      expect(documented(operationId, fromSubject.status), `${path}: ${fromSubject.status}`).toBe(true);
      expect(fromSubject.status).toBeGreaterThanOrEqual(400);
      expect(await ask(straightforward, method, path, body)).toEqual(fromSubject);
    }
  });
});

describe('the same PATCH', () => {
  const operationId = 'updateObservabilityDestination';
  const path = () => operationPath(spec, operationId, { id: seeded.destinationId });
  // The spec's examples, but for the one that sends a mask back: the straightforward baseline
  // skips the masked-secret rule. And a rotation of a secret long enough for its mask to show its ends.
  const { template, method } = findOperation(operationId);
  const examples = nodeAt(
    spec,
    `#/paths/${escapePointer(template)}/${method}/requestBody/content/application~1json/examples`,
  ) as Record<string, { value: DestinationUpdate }>;
  const longSecret = `sk-lf-${'0123456789abcdef'.repeat(3)}`;
  const updates: [string, DestinationUpdate][] = [
    ...Object.entries(examples)
      .filter(([name]) => name !== 'rotateSecret')
      .map(([name, example]): [string, DestinationUpdate] => [name, example.value]),
    ['a long secret rotated', { config: { secretKey: longSecret, baseUrl: 'https://eu.cloud.langfuse.com' } }],
  ];

  it('has valid requests to send', () => {
    expect(updates.length).toBeGreaterThanOrEqual(3);
    for (const [name, update] of updates) expect(requestBodySchema(operationId)(update), name).toBe(true);
  });

  // The baseline writes first; the server, sent the same update, finds nothing to change and
  // answers the destination as stored: so the baseline's answer is what it wrote, as the server
  // reads it back (the sealed config, the JSON columns, the revision), ETag and updated_at included.
  it.each(updates)('%s: the baseline answers what it stored, as the server reads it', async (_name, update) => {
    const fromStraightforward = await ask(straightforward, 'PATCH', path(), update);
    expect(fromStraightforward.status).toBe(successStatus(operationId));
    expect(fromStraightforward.etag).toMatch(/^"r\d+"$/);
    expect(await ask(subject, 'PATCH', path(), update)).toEqual(fromStraightforward);
    const { data } = JSON.parse(fromStraightforward.body) as DestinationResponse;
    // Every field as sent, but the regions, which are answered with eu as europe (DataRegionListUpdate).
    for (const [field, value] of Object.entries(update))
      if (field !== 'config' && field !== 'regions') expect(data).toHaveProperty(field, value);
    if (update.regions)
      expect(new Set(data.regions)).toEqual(new Set(update.regions.map((r) => (r === 'eu' ? 'europe' : r))));
  });

  it('masks a long secret as the server does, showing its ends only', async () => {
    const { body } = await ask(straightforward, 'PATCH', path(), { config: { secretKey: longSecret } });
    const { data } = JSON.parse(body) as DestinationResponse;
    expect(data.config).toMatchObject({ secretKey: `${longSecret.slice(0, 4)}...${longSecret.slice(-4)}` });
  });

  it('refuses an If-Match of another revision alike, and takes the current one', async () => {
    const update: DestinationUpdate = { enabled: false };
    const stale = { 'If-Match': '"r0"' };
    const fromSubject = await ask(subject, 'PATCH', path(), update, stale);
    expect(documented(operationId, fromSubject.status) && fromSubject.status >= 400).toBe(true);
    expect(await ask(straightforward, 'PATCH', path(), update, stale)).toEqual(fromSubject);
    const current = { 'If-Match': fromSubject.etag ?? '' };
    expect((await ask(straightforward, 'PATCH', path(), update, current)).status).toBe(successStatus(operationId));
  });

  // The other way round, both make the change; the baseline writes again though nothing changes,
  // so only its revision (the ETag) and updated_at differ.
  it('answers a change the server made first with the same destination, written once more', async () => {
    const update: DestinationUpdate = { sampling_rate: 0.125, privacy_mode: false, name: 'Bench, renamed' };
    const fromSubject = await ask(subject, 'PATCH', path(), update);
    const fromStraightforward = await ask(straightforward, 'PATCH', path(), update);
    expect(fromStraightforward.status).toBe(fromSubject.status);
    const revision = (answer: Answer) => Number(/^"r(\d+)"$/.exec(answer.etag ?? '')?.[1]);
    expect(revision(fromStraightforward)).toBe(revision(fromSubject) + 1);
    const [a, b] = [fromSubject, fromStraightforward].map(
      (answer) => JSON.parse(answer.body) as DestinationResponse,
    ) as [DestinationResponse, DestinationResponse];
    expect(b.data.updated_at >= a.data.updated_at).toBe(true);
    expect({ ...b.data, updated_at: null }).toEqual({ ...a.data, updated_at: null });
    expect(a.data).toMatchObject(update);
  });
});
