// copy-database between every pair of the two databases (PostgreSQL's in the postgres project):
// a server on the copy answers every object byte for byte as one on the source, ETags included,
// with the secrets sealed again when the target has its own key; and what is refused before
// anything is written, leaving the target as it was.
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox, type SecretBox } from '../../server/domain/secrets.js';
import { describeFailure } from '../../server/failure.js';
import { COPIED_TABLES } from '../../server/store/copy/copied-tables.js';
import { copyDatabase } from '../../server/store/copy/copy-database.js';
import { openDatabase, parseDatabaseUrl } from '../../server/store/database.js';
import type { SealedKeys } from '../../server/store/sealed-keys.js';
import { openSqliteConnection } from '../../server/store/sqlite-connection.js';
import { databaseOf, everyAnswer, type Filled, fillDatabase, sqliteFile } from '../support/copy-fixtures.js';
import { type TestDatabase, testDatabaseKind } from '../support/database.js';

const made: TestDatabase[] = [];
const database = async (kind: 'sqlite' | 'postgres') => {
  const db = await databaseOf(kind);
  made.push(db);
  return db;
};
afterAll(async () => {
  for (const db of made) await db.drop();
});

const refuseKeys = ({ unopened }: SealedKeys) => {
  if (unopened.length > 0) throw new Error(`unopened ${unopened.join(', ')}`);
};

const copy = (source: string, secrets: SecretBox, target: string, targetSecrets = secrets, resume = false) =>
  copyDatabase({
    source: { url: source, secrets, refuseKeys },
    target: { url: target, secrets: targetSecrets },
    resume,
    connectTimeoutMs: 5000,
    batchRows: 7,
  });

const refusal = (copying: Promise<unknown>) =>
  copying.then(
    () => {
      throw new Error('the copy was made');
    },
    (err: unknown) => describeFailure(err),
  );

/** Every row of every table of a database, to see that a refused copy changed nothing. */
async function everyRow(url: string): Promise<unknown> {
  const { db } = await openDatabase(parseDatabaseUrl(url));
  try {
    const tables = (await db.introspection.getTables({ withInternalKyselyTables: true })).map((table) => table.name);
    const rows: Record<string, unknown[]> = {};
    for (const table of tables.sort())
      rows[table] = (await sql`select * from ${sql.table(table)} order by 1`.execute(db)).rows;
    return rows;
  } finally {
    await db.destroy();
  }
}

const other = testDatabaseKind;
const pairs: ['sqlite' | 'postgres', 'sqlite' | 'postgres'][] =
  other === 'postgres'
    ? [
        ['sqlite', 'postgres'],
        ['postgres', 'sqlite'],
        ['postgres', 'postgres'],
      ]
    : [['sqlite', 'sqlite']];

describe.each(pairs)('a copy from %s into %s', (from, to) => {
  let source: TestDatabase;
  let filled: Filled;
  let answers: string[];

  // The source every test copies from, made before any of them: they pass in any order.
  beforeAll(async () => {
    source = await database(from);
    filled = await fillDatabase(source.url);
    answers = await everyAnswer(source.url, filled.secrets, filled);
  });

  it('answers every object as the source does, byte for byte, and says what it read, wrote and checked', async () => {
    const target = await database(to);
    const report = await copy(source.url, filled.secrets, target.url);
    expect(report.equal).toBe(true);
    expect(report.resumed).toBe(false);
    expect(report.migrations).toEqual([
      '0001_initial',
      '0002_external_user_broadcast_regions',
      '0003_expand_data_moves',
    ]);
    expect(report.tables.preset_versions).toMatchObject({ read: 246, written: 246 });
    expect(report.tables.key_usage_daily?.source.rows).toBe(30);
    for (const table of Object.values(report.tables)) {
      expect(table.target).toEqual(table.source);
      expect(table.written).toBe(table.source.rows);
    }
    expect(await everyAnswer(target.url, filled.secrets, filled)).toEqual(answers);
  });

  it('seals the secrets again under the key of a target that has its own, and answers the same', async () => {
    const target = await database(to);
    const targetSecrets = createSecretBox(randomBytes(32));
    const report = await copy(source.url, filled.secrets, target.url, targetSecrets);
    expect(report.equal).toBe(true);
    expect(await everyAnswer(target.url, targetSecrets, filled)).toEqual(answers);
    // Under the source's key alone, the target's secrets no longer open.
    const { db } = await openDatabase(parseDatabaseUrl(target.url));
    const sealed = await db.selectFrom('destinations').select('config_sealed').execute();
    await db.destroy();
    expect(sealed.length).toBe(4);
    for (const row of sealed) {
      expect(targetSecrets.isCurrent(row.config_sealed)).toBe(true);
      expect(() => filled.secrets.open(row.config_sealed)).toThrow();
    }
  });

  it('refuses a target that holds data, and changes nothing in it', async () => {
    const target = await database(to);
    await fillDatabase(target.url, filled.secrets);
    const before = await everyRow(target.url);
    expect(await refusal(copy(source.url, filled.secrets, target.url))).toMatch(
      /^The (SQLite|PostgreSQL) database .* holds data already: nothing was changed\. Copy into an empty database/,
    );
    expect(await everyRow(target.url)).toEqual(before);
  });

  it('refuses a target with a migration the source lacks, and changes nothing in it', async () => {
    const target = await database(to);
    const { db } = await openDatabase(parseDatabaseUrl(target.url));
    await sql`create table kysely_migration (name varchar(255) primary key, timestamp varchar(255) not null)`.execute(
      db,
    );
    await sql`insert into kysely_migration values ('0009_expand_later', '2026-12-01T00:00:00.000Z')`.execute(db);
    await db.destroy();
    const before = await everyRow(target.url);
    expect(await refusal(copy(source.url, filled.secrets, target.url))).toMatch(
      /holds migration 0009_expand_later, which the source lacks: its schema is newer than the source's\. Copy into an empty database\.$/,
    );
    expect(await everyRow(target.url)).toEqual(before);
  });

  it('stops before it writes when the keys do not open the secrets of the source', async () => {
    const target = await database(to);
    const before = to === 'postgres' ? await everyRow(target.url) : undefined;
    const wrong = createSecretBox(randomBytes(32));
    expect(await refusal(copy(source.url, wrong, target.url))).toMatch(/^Failed: unopened [0-9a-f]{8}\b/);
    if (to === 'postgres') expect(await everyRow(target.url)).toEqual(before);
    else expect(existsSync(target.url.slice('sqlite:'.length))).toBe(false);
  });

  it('refuses to copy a database into itself', async () => {
    expect(await refusal(copy(source.url, filled.secrets, source.url))).toMatch(
      /^--to names the source database itself \(.*\): copy it to another database$/,
    );
  });
});

describe('what is not a database to copy into', () => {
  it('says so in one line: another scheme, a file that is not a database, an in-memory one', async () => {
    const source = sqliteFile();
    const filled = await fillDatabase(source.url);
    expect(await refusal(copy(source.url, filled.secrets, 'mysql://localhost/api'))).toBe(
      '--to must start with sqlite: or postgres:// (got mysql:).',
    );
    const notADatabase = sqliteFile('notes.txt');
    writeFileSync(
      parseDatabaseUrl(notADatabase.url).kind === 'sqlite' ? notADatabase.url.slice(7) : '',
      'not a db\n'.repeat(200),
    );
    expect(await refusal(copy(source.url, filled.secrets, notADatabase.url))).toMatch(
      /^Cannot open the SQLite database .*notes\.txt \(the target\): the file is not a SQLite database\.$/,
    );
    expect(await refusal(copy(source.url, filled.secrets, 'sqlite::memory:'))).toBe(
      'The target is an in-memory database (sqlite::memory:), which no other process sees.',
    );
    expect(await refusal(copy('mysql://localhost/api', filled.secrets, sqliteFile().url))).toBe(
      'DATABASE_URL must start with sqlite: or postgres:// (got mysql:).',
    );
    const absent = `${source.url}.absent`;
    expect(await refusal(copy(absent, filled.secrets, sqliteFile().url))).toBe(
      `There is no database at ${absent.slice('sqlite:'.length)} (DATABASE_URL): nothing to copy.`,
    );
  });
});

describe('a row the target does not take', () => {
  it('stops the copy in one line naming the table, and keeps the batches before it for --resume', async () => {
    const source = sqliteFile();
    const filled = await fillDatabase(source.url);
    // A usage day of no key, which a database with its foreign keys off let in.
    const connection = await openSqliteConnection(source.url.slice('sqlite:'.length));
    connection.exec('PRAGMA foreign_keys = OFF');
    connection.exec(
      "insert into key_usage_daily (key_id, day, usage, byok_usage) values ('no-such-key', '2026-01-01', 1, 0)",
    );
    connection.close();
    const target = sqliteFile();
    expect(await refusal(copy(source.url, filled.secrets, target.url))).toMatch(
      /^The SQLite database .* refused a row of key_usage_daily among those after the first \d+ \(FOREIGN KEY constraint failed\): the rows before them are kept\. Correct the row in the source, then run again with --resume\.$/,
    );
    const { db } = await openDatabase(parseDatabaseUrl(target.url));
    const progress = await db.selectFrom('copy_progress').select(['table_name', 'done']).execute();
    await db.destroy();
    expect(progress.filter((row) => Boolean(row.done)).map((row) => row.table_name)).toEqual(
      COPIED_TABLES.slice(0, -1).map((table) => table.name),
    );
  });
});
