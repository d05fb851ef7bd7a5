// `copy-database` as an operator runs it, across the two kinds of database: SQLite into PostgreSQL,
// a copy killed with SIGKILL at a random point and resumed ending with the same checksums as one
// that was not, PostgreSQL back into SQLite, and a PostgreSQL target that does not exist refused.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { describeFailure } from '../../server/failure.js';
import { copyDatabase } from '../../server/store/copy/copy-database.js';
import { openDatabase, parseDatabaseUrl } from '../../server/store/database.js';
import { fillDatabase, sqliteFile } from '../support/copy-fixtures.js';
import { checksumsOf, copyCli, killedCopy, largeSource } from '../support/copy-processes.js';
import { createPostgresDatabase, type TestDatabase } from '../support/database.js';

const made: TestDatabase[] = [];
const postgresDatabase = async () => {
  const db = await createPostgresDatabase();
  made.push(db);
  return db;
};
afterAll(async () => {
  for (const db of made) await db.drop();
});

/** Whether the PostgreSQL target has committed a batch of the copy (its copy_progress has a row). */
const committedInto = (url: string) => async () => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from copy_progress');
    return (rows[0]?.n ?? 0) > 0;
  } finally {
    await client.end();
  }
};

describe('copy-database between SQLite and PostgreSQL, through the CLI', () => {
  const source = sqliteFile();
  let whole: TestDatabase;
  let uninterrupted: Record<string, unknown>;

  it('copies a SQLite database into a fresh PostgreSQL one, equal on both sides', async () => {
    await largeSource(source.url);
    whole = await postgresDatabase();
    const copied = await copyCli(['--to', whole.url], { DATABASE_URL: source.url });
    expect(copied.code, copied.stderr).toBe(0);
    const report = JSON.parse(copied.stdout) as { equal: boolean; tables: Record<string, unknown> };
    expect(report).toMatchObject({ equal: true });
    expect(Object.keys(report.tables)).toEqual(
      expect.arrayContaining(['workspaces', 'api_keys', 'key_usage_daily', 'destinations', 'presets']),
    );
    uninterrupted = checksumsOf(copied.stdout);
    for (const [source, target] of Object.values(uninterrupted) as [unknown, unknown][]) expect(target).toEqual(source);
  }, 120_000);

  it('killed after a committed batch, is refused without --resume, and resumed ends with the same checksums', async () => {
    const target = await postgresDatabase();
    const env = { DATABASE_URL: source.url };
    const delayMs = Math.floor(Math.random() * 250);
    await killedCopy(target.url, env, committedInto(target.url), delayMs);

    const again = await copyCli(['--to', target.url], env);
    expect(again.code).toBe(1);
    const lines = again.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^The PostgreSQL database .* holds (an interrupted|a finished) copy of the source: nothing was changed\. Run again with --resume/,
    );

    const resumed = await copyCli(['--to', target.url, '--resume'], env);
    expect(resumed.code, `killed after ${delayMs} ms: ${resumed.stderr}`).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ resumed: true, equal: true });
    expect(checksumsOf(resumed.stdout)).toEqual(uninterrupted);
  }, 120_000);

  it('copies that PostgreSQL database back into SQLite, with the same checksums', async () => {
    const back = sqliteFile();
    const copied = await copyCli(['--to', back.url], { DATABASE_URL: whole.url });
    expect(copied.code, copied.stderr).toBe(0);
    expect(JSON.parse(copied.stdout)).toMatchObject({ equal: true });
    expect(checksumsOf(copied.stdout)).toEqual(uninterrupted);
  }, 120_000);

  it('refuses a PostgreSQL target that does not exist in one line, exit 1', async () => {
    const missing = 'postgres://postgres@127.0.0.1:5432/does_not_exist_x';
    const refused = await copyCli(['--to', missing], { DATABASE_URL: source.url });
    expect(refused.code).toBe(1);
    const lines = refused.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Cannot open the PostgreSQL database "does_not_exist_x" on 127\.0\.0\.1:5432 \(the target\)/,
    );
    expect(lines[0]).toContain('does not exist');
    expect(refused.stdout).toBe('');
  });
});

describe('a row that SQLite holds and PostgreSQL does not take', () => {
  it('stops the copy in one line naming the table, keeping the batches before it', async () => {
    const source = sqliteFile();
    const filled = await fillDatabase(source.url);
    const { db } = await openDatabase(parseDatabaseUrl(source.url));
    const [key] = await db.selectFrom('api_keys').select('id').limit(1).execute();
    // SQLite keeps any length in a varchar(10); PostgreSQL keeps ten characters at most.
    await db
      .insertInto('key_usage_daily')
      .values({ key_id: key?.id ?? '', day: '2026-01-01T00', usage: 1, byok_usage: 0 })
      .execute();
    await db.destroy();
    const target = await postgresDatabase();
    const refusal = await copyDatabase({
      source: { url: source.url, secrets: filled.secrets, refuseKeys: () => {} },
      target: { url: target.url, secrets: filled.secrets },
      resume: false,
      connectTimeoutMs: 5000,
    }).catch((err: unknown) => describeFailure(err));
    expect(refusal).toMatch(
      /^The PostgreSQL database "[^"]+" on [^ ]+ refused a row of key_usage_daily among those after the first 0 \(value too long for type character varying\(10\)\): the rows before them are kept\. Correct the row in the source, then run again with --resume\.$/,
    );
  });
});
