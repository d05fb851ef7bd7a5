// What copy-database checks before it writes anything, each refusal one line: the two databases
// can be opened and are not the same one, the source has this release's schema and its secrets open,
// and the target is empty (or holds the interrupted copy of this source that --resume goes on with)
// and has no migration the source lacks.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Kysely, sql } from 'kysely';
import {
  type DatabaseLocation,
  DatabaseOpenError,
  describeDatabase,
  openDatabase,
  openFailureReason,
} from '../database.js';
import { appliedMigrations, migrationPlan } from '../migrate.js';
import { DatabaseRefusal } from '../refusal.js';
import type { Database } from '../tables.js';
import { COPIED_TABLES } from './copied-tables.js';

/** Opens a database of the copy, or says in one line why it cannot be. */
export async function openForCopy(
  location: DatabaseLocation,
  connectTimeoutMs: number,
  role: 'source' | 'target',
): Promise<Kysely<Database>> {
  const name = `${describeDatabase(location)} (the ${role})`;
  try {
    const { db } = await openDatabase(location, { connectTimeoutMs });
    // SQLite opens a file that is not a database without a word: its first read says so.
    await sql`select 1`.execute(db);
    await appliedMigrations(db).catch(async (err: unknown) => {
      await db.destroy();
      throw err;
    });
    return db;
  } catch (err) {
    // The target is named by --to, not by DATABASE_URL.
    const reason = openFailureReason(err)?.replace('DATABASE_URL', role === 'target' ? '--to' : 'DATABASE_URL');
    if (reason === undefined) throw err;
    throw new DatabaseOpenError(name, reason, { cause: err });
  }
}

/** The same SQLite file under two names, or the same PostgreSQL database by two URLs. */
export async function refuseSameDatabase(
  source: { location: DatabaseLocation; db: Kysely<Database> },
  target: { location: DatabaseLocation; db: Kysely<Database> | undefined },
): Promise<void> {
  const same = `--to names the source database itself (${describeDatabase(source.location)}): copy it to another database`;
  if (source.location.kind === 'sqlite' && target.location.kind === 'sqlite') {
    const a = statSync(resolve(source.location.filename), { throwIfNoEntry: false });
    const b = statSync(resolve(target.location.filename), { throwIfNoEntry: false });
    if (a && b && a.dev === b.dev && a.ino === b.ino) throw new DatabaseRefusal(same);
    return;
  }
  if (source.location.kind !== 'postgres' || target.location.kind !== 'postgres' || !target.db) return;
  // One server started at one moment, one database of it: the same, whatever the URLs say.
  const identity = async (db: Kysely<Database>) =>
    (
      await sql<{
        id: string;
      }>`select pg_postmaster_start_time()::text || ' ' || current_database() || ' ' || coalesce(inet_server_port(), 0)::text as id`.execute(
        db,
      )
    ).rows[0]?.id;
  if ((await identity(source.db)) === (await identity(target.db))) throw new DatabaseRefusal(same);
}

/** The source must have exactly this release's migrations: its columns are the ones copied. */
export async function checkSourceSchema(db: Kysely<Database>, name: string): Promise<string[]> {
  const { pending, newer } = await migrationPlan(db);
  if (newer.length > 0)
    throw new DatabaseRefusal(
      `The ${name} holds migration ${newer.join(', ')} of a newer release: copy it with that release, which knows its columns.`,
    );
  if (pending.length > 0)
    throw new DatabaseRefusal(
      `The ${name} lacks migration ${pending.join(', ')} of this release: migrate it first (DATABASE_URL=<source> npm run migrate), then copy.`,
    );
  return appliedMigrations(db);
}

export interface TargetState {
  applied: string[];
  /** The copy_progress rows of an interrupted copy, by table. */
  progress: Map<string, { source: string; done: boolean }>;
}

/** Refuses a target that holds data, or a newer schema than the source, unless it is the copy --resume goes on with. */
export async function checkTarget(
  db: Kysely<Database>,
  name: string,
  sourceName: string,
  sourceMigrations: readonly string[],
  resume: boolean,
): Promise<TargetState> {
  const applied = await appliedMigrations(db);
  const newer = applied.filter((migration) => !sourceMigrations.includes(migration));
  if (newer.length > 0)
    throw new DatabaseRefusal(
      `The ${name} holds migration ${newer.join(', ')}, which the source lacks: its schema is newer than the source's. Copy into an empty database.`,
    );
  const tables = new Set((await db.introspection.getTables()).map((table) => table.name));
  const progress = new Map<string, { source: string; done: boolean }>();
  if (tables.has('copy_progress'))
    for (const row of await db.selectFrom('copy_progress').select(['table_name', 'source', 'done']).execute())
      progress.set(row.table_name, { source: row.source, done: Boolean(row.done) });
  const interruptedFrom = [...progress.values()].find((row) => row.source !== sourceName)?.source;
  if (interruptedFrom !== undefined)
    throw new DatabaseRefusal(
      `The ${name} holds a copy of another database (${interruptedFrom}): nothing was changed. Copy into an empty database.`,
    );
  if (resume) {
    if (progress.size === 0 && (await holdsData(db, tables)))
      throw new DatabaseRefusal(`The ${name} holds data but no interrupted copy to resume: nothing was changed.`);
    return { applied, progress };
  }
  if (progress.size > 0)
    throw new DatabaseRefusal(
      `The ${name} holds ${[...progress.values()].every((row) => row.done) ? 'a finished' : 'an interrupted'} copy of the source: nothing was changed. Run again with --resume to go on with it (or check it), or copy into an empty database.`,
    );
  if (await holdsData(db, tables))
    throw new DatabaseRefusal(
      `The ${name} holds data already: nothing was changed. Copy into an empty database (or go on with an interrupted copy with --resume).`,
    );
  return { applied, progress };
}

async function holdsData(db: Kysely<Database>, tables: Set<string>): Promise<boolean> {
  for (const table of COPIED_TABLES) {
    if (!tables.has(table.name)) continue;
    const { rows } = await sql`select 1 as one from ${sql.table(table.name)} limit 1`.execute(db);
    if (rows.length > 0) return true;
  }
  return false;
}
