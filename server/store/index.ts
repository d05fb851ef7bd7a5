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
import { migrateToLatest } from './migrations.js';
import { presetStore } from './presets.js';
import { workspaceStore } from './workspaces.js';

export type { PoolFigures } from './database.js';

export interface Store {
  readonly workspaces: ReturnType<typeof workspaceStore>;
  readonly keys: ReturnType<typeof keyStore>;
  readonly destinations: ReturnType<typeof destinationStore>;
  readonly presets: ReturnType<typeof presetStore>;
  /** Resolves when the database answers a query. */
  ping(): Promise<void>;
  /** The connection pool's state; undefined for SQLite, which has none. */
  poolFigures(): PoolFigures | undefined;
  close(): Promise<void>;
}

export function createStore(
  { db, driver, poolFigures }: OpenedDatabase,
  secrets: SecretBox,
  dialect: DatabaseLocation['kind'] = 'sqlite',
): Store {
  return {
    workspaces: workspaceStore(db),
    keys: keyStore(db, driver),
    // SQLite has one writer at a time; PostgreSQL locks the row once writes of it conflict.
    destinations: destinationStore(db, driver, secrets, { lockForUpdate: dialect === 'postgres' }),
    presets: presetStore(db, driver, dialect),
    async ping() {
      await sql`select 1`.execute(db);
    },
    poolFigures: () => poolFigures?.(),
    async close() {
      await db.destroy();
    },
  };
}

/** Opens the database of DATABASE_URL, brings its schema up to date and returns the store. */
export async function openStore(
  databaseUrl: string,
  secrets: SecretBox,
  options: DatabaseOptions = {},
): Promise<Store> {
  const location = parseDatabaseUrl(databaseUrl);
  const cannotOpen = (err: unknown) => {
    const reason = openFailureReason(err);
    return reason === undefined ? err : new DatabaseOpenError(describeDatabase(location), reason, { cause: err });
  };
  let opened: OpenedDatabase;
  try {
    opened = await openDatabase(location, options);
  } catch (err) {
    throw cannotOpen(err);
  }
  try {
    await migrateToLatest(opened.db);
  } catch (err) {
    await opened.db.destroy();
    throw cannotOpen(err);
  }
  const { wrapDriver } = options;
  const driver = wrapDriver
    ? wrapDriver(opened.driver, location.kind === 'postgres' ? 'postgresql' : 'sqlite')
    : opened.driver;
  return createStore({ ...opened, driver }, secrets, location.kind);
}
