// A move as README's "Moving to PostgreSQL" tells an operator to make it, while clients keep
// reading and writing: `read-only`, then `copy-database` into a database of the other kind, then a
// server on the copy, and the clients moved to it. Every read is answered throughout, every write
// after the switch is refused with 503 and Retry-After, and every write acknowledged before it is
// on the copy.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { type Answer, lastAcknowledged, namesOn, startLoad } from '../support/api-load.js';
import { databaseOf, fillDatabase } from '../support/copy-fixtures.js';
import { copyCli, SECRETS_KEY } from '../support/copy-processes.js';
import type { TestDatabase } from '../support/database.js';
import { runEntry, type ServerProcess, startServerProcess } from '../support/process.js';

const made: TestDatabase[] = [];
const servers: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  for (const db of made) await db.drop();
});

const database = async (kind: 'sqlite' | 'postgres') => {
  const db = await databaseOf(kind);
  made.push(db);
  return db;
};

// The clients send many more requests a minute than the default rate limit lets one key send.
const env = { SECRETS_KEY, RATE_LIMIT_MAX: '1000000' };
const server = async (url: string) => {
  const started = await startServerProcess({ ...env, DATABASE_URL: url });
  servers.push(started);
  return started;
};

const patches = (answers: Answer[], server: ServerProcess) =>
  answers.filter((answer) => answer.method === 'PATCH' && answer.server === server.url);
const what = (answers: Answer[]) => answers.map((a) => `${a.method} ${a.path} ${a.status} ${a.retryAfter}`);

describe.each([
  ['postgres', 'sqlite'],
  ['sqlite', 'postgres'],
] as const)('a %s database moved into %s while it serves', (from, to) => {
  it('answers every read, refuses writes with 503 while read-only, and loses no acknowledged write', async () => {
    const source = await database(from);
    const target = await database(to);
    const filled = await fillDatabase(source.url, createSecretBox(Buffer.from(SECRETS_KEY, 'base64')));
    const destinations = filled.workspaces.flatMap((workspace) => workspace.destinations).length;
    const first = await server(source.url);
    const load = startLoad(filled, first.url, 60_000);

    await sleep(500);
    const readOnlyAsked = performance.now();
    const readOnly = await runEntry('server/cli.ts', ['read-only'], { ...env, DATABASE_URL: source.url });
    const readOnlyReturned = performance.now();
    const copied = await copyCli(['--to', target.url], { DATABASE_URL: source.url });
    const second = await server(target.url);
    // Read on the copy before the clients write to it: what the source acknowledged last.
    const onTarget = await namesOn(second.url, filled);
    load.moveTo(second.url);
    // Half a second of load on the target, and at least a write of each client there.
    await sleep(500);
    for (let waited = 0; patches(load.answers, second).length < destinations && waited < 10_000; waited += 50)
      await sleep(50);
    const answers = await load.stop();

    expect(readOnly.code, readOnly.stderr).toBe(0);
    expect(copied.code, copied.stderr).toBe(0);
    expect(JSON.parse(copied.stdout)).toMatchObject({ equal: true });

    // Every read answered, on the source before, during and after the switch, then on the target.
    const reads = answers.filter((answer) => answer.method === 'GET');
    expect(what(reads.filter((answer) => answer.status !== 200))).toEqual([]);
    for (const at of [first, second]) expect(reads.some((answer) => answer.server === at.url)).toBe(true);
    expect(reads.some((answer) => answer.server === first.url && answer.startedAt > readOnlyReturned)).toBe(true);

    // On the source: written until the switch, refused with Retry-After once it has returned.
    const onSource = patches(answers, first);
    expect(what(onSource.filter((answer) => answer.status !== 200 && answer.status !== 503))).toEqual([]);
    expect(onSource.some((answer) => answer.status === 200 && answer.endedAt < readOnlyAsked)).toBe(true);
    expect(what(onSource.filter((answer) => answer.status === 503 && answer.endedAt < readOnlyAsked))).toEqual([]);
    const afterSwitch = onSource.filter((answer) => answer.startedAt > readOnlyReturned);
    expect(afterSwitch.length).toBeGreaterThan(0);
    expect(what(afterSwitch.filter((answer) => answer.status !== 503 || answer.retryAfter !== '5'))).toEqual([]);
    for (const answer of onSource.filter((a) => a.status === 200)) expect(answer.name).toBe(answer.sent);

    // Every write the source acknowledged is on the target: each destination's last name there.
    const acknowledged = lastAcknowledged(answers, first.url);
    expect(acknowledged.size).toBe(destinations);
    expect(onTarget).toEqual(acknowledged);

    // The target takes writes.
    const written = patches(answers, second);
    expect(written.length).toBeGreaterThan(0);
    expect(what(written.filter((answer) => answer.status !== 200))).toEqual([]);
  }, 120_000);
});
