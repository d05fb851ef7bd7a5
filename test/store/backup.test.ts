// SQLite's online backup with each driver this Node.js has: the copy holds what the source holds,
// stays consistent while another connection writes between its steps, and leaves no file behind.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backupSqliteFile, checkSqliteFile } from '../../server/store/backup.js';
import {
  openSqliteConnection,
  type SqliteConnection,
  type SqliteDriverName,
  sqliteDriverFor,
} from '../../server/store/sqlite-connection.js';

const driversHere: SqliteDriverName[] = [
  ...(sqliteDriverFor(process.versions.node) === 'better-sqlite3' ? (['better-sqlite3'] as const) : []),
  ...(process.getBuiltinModule?.('node:sqlite') ? (['node:sqlite'] as const) : []),
];

const folder = mkdtempSync(join(tmpdir(), 'sqlite-backup-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let files = 0;
function newFile(name: string): string {
  files += 1;
  return join(folder, `${name}-${files}.db`);
}

/** A WAL database of `rows` rows of about 1 KiB each in `probe`, and a table of two rows. */
async function database(driver: SqliteDriverName, rows: number): Promise<{ file: string; writer: SqliteConnection }> {
  const file = newFile('source');
  const writer = await openSqliteConnection(file, {}, driver);
  writer.exec('PRAGMA journal_mode = WAL');
  writer.exec('CREATE TABLE probe (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)');
  writer.exec(`CREATE TABLE "odd ""name""" (name TEXT); INSERT INTO "odd ""name""" VALUES ('a'), ('b')`);
  writer.exec(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows}) INSERT INTO probe (payload) SELECT randomblob(1000) FROM n`,
  );
  return { file, writer };
}

const rowsOf = async (file: string, driver: SqliteDriverName, sql: string): Promise<Record<string, unknown>[]> => {
  const connection = await openSqliteConnection(file, { readonly: true }, driver);
  try {
    return connection
      .prepare(sql)
      .all([])
      .map((row) => ({ ...(row as object) }));
  } finally {
    connection.close();
  }
};

describe.each(driversHere)('the backup on %s', (driver) => {
  it('copies every row of every table, and the check counts them', async () => {
    const { file, writer } = await database(driver, 300);
    const copy = newFile('copy');
    const steps: number[] = [];
    const { pages } = await backupSqliteFile(file, copy, {
      driver,
      pagesPerStep: 16,
      onProgress: (progress) => steps.push(progress.remainingPages),
    });
    const check = await checkSqliteFile(copy, driver);
    expect(check).toEqual({ quickCheck: 'ok', pages, pageSize: 4096, tables: { 'odd "name"': 2, probe: 300 } });
    // Told between steps, each with fewer pages to go.
    expect(steps.length).toBeGreaterThan(2);
    expect(steps).toEqual([...steps].sort((a, b) => b - a));
    for (const sql of ['SELECT id, hex(payload) AS payload FROM probe ORDER BY id', 'SELECT * FROM "odd ""name"""'])
      expect(await rowsOf(copy, driver, sql)).toEqual(await rowsOf(file, driver, sql));
    writer.close();
  });

  it('is the database of one moment while another connection writes between its steps', async () => {
    const { file, writer } = await database(driver, 400);
    const insert = writer.prepare('INSERT INTO probe (payload) VALUES (randomblob(1000))');
    let written = 400;
    let writing = true;
    const write = () => {
      if (!writing) return;
      insert.run([]);
      written += 1;
      setImmediate(write);
    };
    setImmediate(write);
    const before = written;
    const copy = newFile('copy');
    // Without starting again as one step, a copy that a write restarts after each step never ends.
    await backupSqliteFile(file, copy, { driver, pagesPerStep: 16 });
    writing = false;
    expect(written).toBeGreaterThan(before);
    const check = await checkSqliteFile(copy, driver);
    expect(check.quickCheck).toBe('ok');
    const [range] = await rowsOf(copy, driver, 'SELECT count(*) AS rows, min(id) AS first, max(id) AS last FROM probe');
    // Every row committed before the backup began, and no gap: a prefix of what was written.
    expect(range?.rows).toBeGreaterThanOrEqual(before);
    expect(range?.rows).toBeLessThanOrEqual(written);
    expect(range).toEqual({ rows: range?.rows, first: 1, last: range?.rows });
    writer.close();
  });

  it('leaves no -wal or -shm file beside the source or the copy once the last connection closed', async () => {
    const { file, writer } = await database(driver, 10);
    writer.close();
    const copy = newFile('copy');
    await backupSqliteFile(file, copy, { driver });
    await checkSqliteFile(copy, driver);
    for (const made of [file, copy])
      expect(readdirSync(folder).filter((name) => name.startsWith(basename(made)))).toEqual([basename(made)]);
  });
});
