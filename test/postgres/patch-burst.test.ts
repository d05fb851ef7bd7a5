// A burst of concurrent PATCHes of one destination on a healthy PostgreSQL is served, queued for
// the pool's connections, not refused with 503: every request answers 200, and every acknowledged
// write is stored, in a revision of its own. The wait for a connection is bounded only while no
// connection comes back (a database that hangs); a database that is down still answers 503
// (outage.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseOptions } from '../../server/store/connection.js';
import { call, startServerWithDestination, type TestServer } from '../support/server.js';

const BURST = 500;

let server: TestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each<[string, DatabaseOptions]>([
  ['the default pool', {}],
  // One connection and a 300 ms connect timeout: the last of the burst wait seconds for it.
  ['a pool far smaller than the burst', { poolSize: 1, connectTimeoutMs: 300 }],
])(`${BURST} concurrent PATCHes of one destination, on %s`, (_name, databaseOptions) => {
  it('are all answered 200, each in a revision of its own, and the last one is what is stored', async () => {
    const started = await startServerWithDestination({ databaseOptions });
    server = started.server;
    const { workspace, destinationPath } = started;
    const patch = (body: unknown) =>
      call(started.server, 'PATCH', destinationPath, { key: workspace.managementKey, body });

    const before = await patch({});
    const firstRevision = Number(before.headers.get('etag')?.replace(/\D/g, ''));
    const answers = await Promise.all(Array.from({ length: BURST }, (_, i) => patch({ name: `burst ${i}` })));

    const statuses: Record<number, number> = {};
    for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
    expect(statuses).toEqual({ 200: BURST });
    // Every PATCH changed the name: each took the next revision, none lost and none shared.
    const tags = answers.map((answer) => answer.headers.get('etag'));
    const expectedTags = Array.from({ length: BURST }, (_, i) => `"r${firstRevision + 1 + i}"`);
    expect(new Set(tags)).toEqual(new Set(expectedTags));

    // What is stored is what the PATCH of the last revision answered.
    const after = await patch({});
    expect(after.headers.get('etag')).toBe(expectedTags.at(-1));
    const last = answers.find((answer) => answer.headers.get('etag') === after.headers.get('etag'));
    expect(after.body).toEqual(last?.body);
    expect(started.server.serverErrors()).toEqual([]);
  }, 120_000);
});
