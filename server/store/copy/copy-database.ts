// copy-database: every row of one database into another, of either kind, from one snapshot of the
// source, in batches of bounded size, each committed with the copy's progress so that a copy that
// was interrupted goes on where it stopped (--resume). It ends with a check of both sides: rows and
// a checksum per table, each side read as the API reads it. README, "Moving to PostgreSQL".
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import type { SecretBox } from '../../domain/secrets.js';
import { type DatabaseLocation, describeDatabase, parseDatabaseUrl } from '../database.js';
import { migrateToLatest } from '../migrate.js';
import { DatabaseRefusal } from '../refusal.js';
import { readSealedKeys, type SealedKeys } from '../sealed-keys.js';
import { sqliteCodeOf } from '../sqlite-connection.js';
import type { Database } from '../tables.js';
import { COPIED_TABLES, type CopiedTable, rowValues, tableChecksum } from './copied-tables.js';
import { checkSourceSchema, checkTarget, openForCopy, refuseSameDatabase } from './copy-checks.js';
import { snapshotOf, writerOf } from './open-sides.js';
import { tableFigures } from './side-checksums.js';
import type { Place } from './sides.js';

/** Rows a batch reads and writes at most: memory stays bounded whatever the database's size. */
export const COPY_BATCH_ROWS = 5000;
const YIELD_EVERY_ROWS = 500;

export interface CopyOptions {
  /** `refuseKeys` throws when the source's secrets are sealed under a key that `secrets` lacks. */
  source: { url: string; secrets: SecretBox; refuseKeys: (sealed: SealedKeys) => void };
  /** The target's secrets: values sealed under another key than its current one are sealed again. */
  target: { url: string; secrets: SecretBox };
  resume: boolean;
  connectTimeoutMs: number;
  batchRows?: number;
  now?: () => Date;
  /** Told after each batch. */
  onProgress?: (progress: CopyProgress) => void;
  /** Called once every check has passed, before the first write (the development key is saved there). */
  beforeWriting?: () => void;
}

export interface CopyProgress {
  table: string;
  copied: number;
  total: number;
}

export interface TableReport {
  read: number;
  written: number;
  source: { rows: number; checksum: string };
  target: { rows: number; checksum: string };
  ms: number;
}

export interface CopyReport {
  source: string;
  target: string;
  resumed: boolean;
  migrations: string[];
  tables: Record<string, TableReport>;
  /** Whether every table has the same rows and checksum on both sides. */
  equal: boolean;
  ms: number;
}

function locationOf(url: string, role: 'source' | 'target'): DatabaseLocation {
  let location: DatabaseLocation;
  try {
    location = parseDatabaseUrl(url);
  } catch (err) {
    throw new DatabaseRefusal(
      `${(err as Error).message.replace(/^DATABASE_URL/, role === 'target' ? '--to' : 'DATABASE_URL')}.`,
    );
  }
  if (location.kind === 'sqlite' && location.filename === ':memory:')
    throw new DatabaseRefusal(`The ${role} is an in-memory database (sqlite::memory:), which no other process sees.`);
  if (role === 'source' && location.kind === 'sqlite' && !existsSync(location.filename))
    throw new DatabaseRefusal(`There is no database at ${location.filename} (DATABASE_URL): nothing to copy.`);
  return location;
}

export async function copyDatabase(options: CopyOptions): Promise<CopyReport> {
  const started = performance.now();
  const now = options.now ?? (() => new Date());
  const batchRows = options.batchRows ?? COPY_BATCH_ROWS;
  const from = locationOf(options.source.url, 'source');
  const to = locationOf(options.target.url, 'target');
  // A resumed copy must name its source as the first did, however DATABASE_URL spells its file now.
  const sourceName = describeDatabase(
    from.kind === 'sqlite' ? { kind: 'sqlite', filename: resolve(from.filename) } : from,
  );
  const targetName = describeDatabase(to);
  const source = await openForCopy(from, options.connectTimeoutMs, 'source');
  let target: Kysely<Database> | undefined;
  try {
    const targetExists = to.kind === 'postgres' || existsSync(to.filename);
    target = targetExists ? await openForCopy(to, options.connectTimeoutMs, 'target') : undefined;
    await refuseSameDatabase({ location: from, db: source }, { location: to, db: target });
    const migrations = await checkSourceSchema(source, sourceName);
    options.source.refuseKeys(await readSealedKeys(source, options.source.secrets));
    const state = target
      ? await checkTarget(target, targetName, sourceName, migrations, options.resume)
      : { applied: [], progress: new Map() };
    options.beforeWriting?.();
    target ??= await openForCopy(to, options.connectTimeoutMs, 'target');
    await migrateToLatest(target);
    await copyMigrationHistory(source, target);
    const resumed = state.progress.size > 0;
    const tables = await copyRows(options, from, to, sourceName, batchRows, now, targetName);
    for (const table of COPIED_TABLES) {
      const report = tables[table.name];
      if (!report) continue;
      report.target = await tableFigures(to, options.connectTimeoutMs, options.target.secrets, table, batchRows);
      // A resumed copy read its earlier batches from an earlier snapshot: the source is read again whole.
      if (resumed)
        report.source = await tableFigures(from, options.connectTimeoutMs, options.source.secrets, table, batchRows);
    }
    const equal = Object.values(tables).every(
      (table) => table.source.rows === table.target.rows && table.source.checksum === table.target.checksum,
    );
    return {
      source: sourceName,
      target: targetName,
      resumed,
      migrations,
      tables,
      equal,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    await source.destroy();
    await target?.destroy();
  }
}

/** The target's migrations as the source ran them, so that its history says when each was applied. */
async function copyMigrationHistory(source: Kysely<Database>, target: Kysely<Database>): Promise<void> {
  const { rows } = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration`.execute(
    source,
  );
  for (const row of rows)
    await sql`update kysely_migration set timestamp = ${row.timestamp} where name = ${row.name}`.execute(target);
}

async function copyRows(
  options: CopyOptions,
  from: DatabaseLocation,
  to: DatabaseLocation,
  sourceName: string,
  batchRows: number,
  now: () => Date,
  targetName: string,
): Promise<Record<string, TableReport>> {
  const reader = await snapshotOf(from, options.connectTimeoutMs);
  const writer = await writerOf(to, options.connectTimeoutMs).catch(async (err: unknown) => {
    await reader.close();
    throw err;
  });
  const reports: Record<string, TableReport> = {};
  // One batch is written while the next is read: the target's work overlaps the source's.
  let writing: Promise<void> = Promise.resolve();
  const write = async (next: () => Promise<void>) => {
    await writing;
    writing = next();
    writing.catch(() => {});
  };
  try {
    const done = await progressOf(to, options);
    for (const table of COPIED_TABLES) {
      const started = performance.now();
      const total = await reader.count(table);
      const earlier = done.get(table.name);
      const checksum = await tableChecksum(table, options.source.secrets, earlier?.checksum);
      let after: Place | null = earlier?.last_key ? (JSON.parse(earlier.last_key) as Place) : null;
      let copied = earlier?.rows_copied ?? 0;
      let read = 0;
      let finished = earlier?.done ?? false;
      while (!finished) {
        const { rows, next } = await reader.batch(table, after, batchRows);
        read += rows.length;
        const values: unknown[][] = [];
        for (const [index, row] of rows.entries()) {
          const rowAsRead = rowValues(table, row);
          checksum.add(rowAsRead);
          values.push(sealedFor(table, rowAsRead, options));
          // The batch being written goes out on its socket only while the event loop turns.
          if (index % YIELD_EVERY_ROWS === YIELD_EVERY_ROWS - 1) await setImmediate();
        }
        copied += rows.length;
        finished = next === null;
        if (next !== null) after = next;
        const progress = {
          table_name: table.name,
          source: sourceName,
          rows_copied: copied,
          last_key: after === null ? null : JSON.stringify(after),
          checksum: checksum.toString(),
          done: finished,
          updated_at: now().toISOString(),
        };
        await write(async () => {
          await writer.write(table, values, progress).catch((err: unknown) => {
            throw refusedBatch(err, table.name, targetName, progress.rows_copied - values.length);
          });
          options.onProgress?.({ table: table.name, copied: progress.rows_copied, total });
        });
      }
      reports[table.name] = {
        read,
        written: read,
        source: { rows: copied, checksum: checksum.toString() },
        target: { rows: 0, checksum: '' },
        ms: Math.round(performance.now() - started),
      };
    }
    await writing;
  } finally {
    await writing.catch(() => {});
    await writer.close();
    await reader.close();
  }
  return reports;
}

/**
 * A batch that the target refuses for what a row holds (a value PostgreSQL does not take that SQLite
 * did, say): one line, and what came before it stays, for --resume once the row is corrected.
 */
function refusedBatch(err: unknown, table: string, targetName: string, before: number): unknown {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  const data =
    (typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code)) ||
    sqliteCodeOf(err)?.startsWith('SQLITE_CONSTRAINT') === true;
  if (!data) return err;
  return new DatabaseRefusal(
    `The ${targetName} refused a row of ${table} among those after the first ${before} (${String(message)}): the rows before them are kept. Correct the row in the source, then run again with --resume.`,
  );
}

/** A row's sealed secrets as the target keeps them: as they are when under its key, sealed again otherwise. */
function sealedFor(table: CopiedTable, values: unknown[], options: CopyOptions): unknown[] {
  if (table.sealed === undefined) return values;
  const at = table.columns.indexOf(table.sealed);
  const sealed = String(values[at]);
  if (!options.target.secrets.isCurrent(sealed))
    values[at] = options.target.secrets.seal(options.source.secrets.open(sealed));
  return values;
}

type Progress = { rows_copied: number; last_key: string | null; checksum: string; done: boolean };

/** What an interrupted copy had committed into the target, by table. */
async function progressOf(to: DatabaseLocation, options: CopyOptions): Promise<Map<string, Progress>> {
  const db = await openForCopy(to, options.connectTimeoutMs, 'target');
  try {
    const rows = await db
      .selectFrom('copy_progress')
      .select(['table_name', 'rows_copied', 'last_key', 'checksum', 'done'])
      .execute();
    return new Map(
      rows.map((row) => [
        row.table_name,
        {
          rows_copied: Number(row.rows_copied),
          last_key: row.last_key,
          checksum: row.checksum,
          done: Boolean(row.done),
        },
      ]),
    );
  } finally {
    await db.destroy();
  }
}
