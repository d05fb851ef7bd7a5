// Three server processes on one PostgreSQL database: concurrent PATCHes of different fields of the
// same destination, through different processes, lose nothing; stale If-Match never overwrites.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { openStore } from '../../server/store/store.js';
import { createPostgresDatabase, type TestDatabase } from '../support/database.js';
import { type ServerProcess, startServerProcess } from '../support/process.js';
import { provision } from '../support/server.js';

const PAIRS = 500;
const IN_FLIGHT_PAIRS = 25;
const secretsKey = randomBytes(32);
let database: TestDatabase;
let processes: ServerProcess[] = [];
let urls: string[] = [];
let apiKey = '';
let destinationId = '';
let workspaceId = '';

beforeAll(async () => {
  database = await createPostgresDatabase();
  const store = await openStore(database.url, createSecretBox(secretsKey));
  const now = new Date();
  const workspace = await store.workspaces.create('Scale', now);
  workspaceId = workspace.id;
  apiKey = (await provision.createKey(store, { workspaceId, name: 'Admin', kind: 'management' }, now)).rawKey;
  destinationId = (
    await provision.createDestination(
      store,
      {
        workspaceId,
        type: 's3',
        name: 'start',
        config: { bucketName: 'b', accessKeyId: 'AKIAEXAMPLE0000', secretAccessKey: 'secret-access-key-0000' },
      },
      now,
    )
  ).id;
  await store.close();

  processes = await Promise.all(
    [0, 1, 2].map(() =>
      startServerProcess({
        DATABASE_URL: database.url,
        SECRETS_KEY: secretsKey.toString('base64'),
        DATABASE_POOL_SIZE: '5',
        NODE_ENV: 'production',
      }),
    ),
  );
  urls = processes.map((p) => p.url);
}, 60_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await database?.drop();
});

async function patch(processIndex: number, body: unknown, ifMatch?: string) {
  const response = await fetch(
    `${urls[processIndex % urls.length]}/api/v1/observability/destinations/${destinationId}`,
    {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        ...(ifMatch && { 'if-match': ifMatch }),
      },
      body: JSON.stringify(body),
    },
  );
  return {
    status: response.status,
    etag: response.headers.get('etag') ?? '',
    body: (await response.json()) as { data: Record<string, unknown> & { config: Record<string, string> } },
  };
}

type Change = { field: string; value: unknown; body: Record<string, unknown> };

/** Pair j: two changes of different fields, each value unique, so every change is visible. */
function pair(j: number): [Change, Change] {
  const kinds: [Change, Change][] = [
    [
      { field: 'name', value: `name-${j}`, body: { name: `name-${j}` } },
      { field: 'config.prefix', value: `prefix-${j}`, body: { config: { prefix: `prefix-${j}` } } },
    ],
    [
      { field: 'sampling_rate', value: (j + 1) / 1000, body: { sampling_rate: (j + 1) / 1000 } },
      { field: 'config.region', value: `region-${j}`, body: { config: { region: `region-${j}` } } },
    ],
    [
      { field: 'api_key_hashes', value: [`hash-${j}`], body: { api_key_hashes: [`hash-${j}`] } },
      { field: 'config.pathTemplate', value: `template-${j}`, body: { config: { pathTemplate: `template-${j}` } } },
    ],
  ];
  return kinds[j % kinds.length] as [Change, Change];
}

function fieldValue(data: Record<string, unknown> & { config: Record<string, string> }, field: string): unknown {
  return field.startsWith('config.') ? data.config[field.slice('config.'.length)] : data[field];
}

const revisionOf = (etag: string) => Number(/^"r(\d+)"$/.exec(etag)?.[1]);

describe('three server processes on one PostgreSQL database', () => {
  it(`${PAIRS} concurrent PATCH pairs through different processes lose no update`, async () => {
    const startRevision = revisionOf((await patch(0, {})).etag);
    const applied: { revision: number; change: Change }[] = [];
    for (let first = 0; first < PAIRS; first += IN_FLIGHT_PAIRS) {
      const batch = Array.from({ length: Math.min(IN_FLIGHT_PAIRS, PAIRS - first) }, (_, i) => first + i);
      const results = await Promise.all(
        batch.flatMap((j) =>
          pair(j).map(async (change, side) => ({ change, response: await patch(j + side, change.body) })),
        ),
      );
      for (const { change, response } of results) {
        expect(response.status).toBe(200);
        // Each answer shows its own change.
        expect(fieldValue(response.body.data, change.field)).toEqual(change.value);
        applied.push({ revision: revisionOf(response.etag), change });
      }
    }
    // Every successful change got its own revision, one after the other: none was overwritten in flight.
    const revisions = applied.map((a) => a.revision).sort((a, b) => a - b);
    // Two successful changes sharing a revision would mean one overwrote the other in flight.
    const lost = applied.length - new Set(revisions).size;
    expect(revisions).toEqual(Array.from({ length: PAIRS * 2 }, (_, i) => startRevision + 1 + i));

    // Replaying the changes in commit order gives what is stored.
    const expected = new Map<string, unknown>();
    for (const { change } of [...applied].sort((a, b) => a.revision - b.revision))
      expected.set(change.field, change.value);
    const final = await patch(2, {});
    for (const [field, value] of expected) expect(fieldValue(final.body.data, field), field).toEqual(value);
    console.log(
      `several processes: ${PAIRS} concurrent PATCH pairs (${PAIRS * 2} PATCHes) through 3 processes, ${applied.length} answered 200, lost updates: ${lost}`,
    );
    expect(lost).toBe(0);
  }, 120_000);

  it('lets exactly one of many concurrent PATCHes with the same If-Match through; the others get 412', async () => {
    const { etag } = await patch(0, {});
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => patch(i, { name: `contender-${i}` }, etag)));
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.status === 412)).toHaveLength(29);
    const final = await patch(1, {});
    expect(final.body.data.name).toBe(winners[0]?.body.data.name);
    console.log(`several processes: 30 concurrent PATCHes with one stale-able If-Match: 1 applied, 29 answered 412`);
  }, 60_000);
});
