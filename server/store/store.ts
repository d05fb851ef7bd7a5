// The one store interface the handlers and the CLI use, whatever the database behind it.
import { sql } from 'kysely';
import type { SecretBox } from '../domain/secrets.js';
import {
  type DatabaseLocation,
  DatabaseOpenError,
  type DatabaseOptions,
  describeDatabase,
  type OpenedDatabase,
  openDatabase,
  openFailureReason,
  type PoolFigures,
  parseDatabaseUrl,
} from './database.js';
import { destinationStore } from './destinations.js';
import { keyStore } from './keys.js';
import { migrateToLatest, migrationPlan } from './migrate.js';
import { presetStore } from './presets.js';
import { serviceStateStore } from './read-only.js';
import { readSealedKeys, type SealedKeys } from './sealed-keys.js';
import { workspaceStore } from './workspaces.js';

export type { PoolFigures } from './database.js';
export type { SealedKeys } from './sealed-keys.js';

export interface Store {
  readonly workspaces: ReturnType<typeof workspaceStore>;
  readonly keys: ReturnType<typeof keyStore>;
  readonly destinations: ReturnType<typeof destinationStore>;
  readonly presets: ReturnType<typeof presetStore>;
  /** The read-only switch of a database that moves. */
  readonly serviceState: ReturnType<typeof serviceStateStore>;
  /** The key ids the stored secrets are sealed under, and those the store's keys do not open. */
  sealedKeys(): Promise<SealedKeys>;
  /** Resolves when the database answers a query. */
  ping(): Promise<void>;
  /** The connection pool's state; undefined for SQLite, which has none. */
  poolFigures(): PoolFigures | undefined;
  /** The migrations that opening the store applied, in order. */
  readonly migrationsApplied: readonly string[];
  close(): Promise<void>;
}

/**
 * Migrates, or checks. On PostgreSQL a migration runs on a connection of its own, without the
 * statement timeout of the request path (building an index on a large table may outlast it); its
 * lock waits stay bounded. That connection is opened only when there is something to apply.
 */
async function migrateDatabase(
  location: DatabaseLocation,
  opened: OpenedDatabase,
  options: DatabaseOptions,
  apply: boolean,
): Promise<string[]> {
  if (location.kind !== 'postgres' || !apply) return migrateToLatest(opened.db, { apply });
  if ((await migrationPlan(opened.db)).pending.length === 0) return [];
  const migrating = await openDatabase(location, {
    ...options,
    poolSize: 1,
    timeouts: { ...options.timeouts, statementMs: 0 },
  });
  try {
    return await migrateToLatest(migrating.db);
  } finally {
    await migrating.db.destroy();
  }
}

export function createStore(
  { db, driver, poolFigures }: OpenedDatabase,
  secrets: SecretBox,
  dialect: DatabaseLocation['kind'] = 'sqlite',
  migrationsApplied: readonly string[] = [],
): Store {
  return {
    migrationsApplied,
    workspaces: workspaceStore(db),
    keys: keyStore(db, driver),
    // SQLite has one writer at a time; PostgreSQL locks the row once writes of it conflict.
    destinations: destinationStore(db, driver, secrets, { lockForUpdate: dialect === 'postgres' }),
    presets: presetStore(db, driver, dialect),
    serviceState: serviceStateStore(db, dialect),
    sealedKeys: () => readSealedKeys(db, secrets),
    async ping() {
      await sql`select 1`.execute(db);
    },
    poolFigures: () => poolFigures?.(),
    async close() {
      await db.destroy();
    },
  };
}

export interface StoreOptions extends DatabaseOptions {
  /**
   * True (the default): apply this release's migrations the database lacks. False: apply none, and
   * refuse a database that lacks one (MIGRATE_ON_START=false, after `npm run migrate`).
   */
  migrate?: boolean;
}

/**
 * Opens the database of DATABASE_URL, brings its schema up to date (or checks it is) and returns
 * the store. A database this release cannot run on is refused (MigrationRefusal, one line).
 */
export async function openStore(databaseUrl: string, secrets: SecretBox, options: StoreOptions = {}): Promise<Store> {
  const location = parseDatabaseUrl(databaseUrl);
  const cannotOpen = (err: unknown) => {
    const reason = openFailureReason(err);
    return reason === undefined ? err : new DatabaseOpenError(describeDatabase(location), reason, { cause: err });
  };
  const { migrate = true, ...databaseOptions } = options;
  let opened: OpenedDatabase;
  try {
    opened = await openDatabase(location, databaseOptions);
  } catch (err) {
    throw cannotOpen(err);
  }
  let migrationsApplied: string[];
  try {
    migrationsApplied = await migrateDatabase(location, opened, databaseOptions, migrate);
  } catch (err) {
    await opened.db.destroy();
    throw cannotOpen(err);
  }
  const { wrapDriver } = options;
  const driver = wrapDriver
    ? wrapDriver(opened.driver, location.kind === 'postgres' ? 'postgresql' : 'sqlite')
    : opened.driver;
  return createStore({ ...opened, driver }, secrets, location.kind, migrationsApplied);
}
