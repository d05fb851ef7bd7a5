// The one store interface the handlers and the CLI use, whatever the database behind it.
import { sql, type Kysely } from 'kysely';
import { destinationStore } from './destinations.js';
import { keyStore } from './keys.js';
import { migrateToLatest } from './migrations.js';
import { openDatabase, parseDatabaseUrl } from './database.js';
import { presetStore } from './presets.js';
import type { SecretBox } from '../domain/secrets.js';
import type { Database } from './schema.js';
import { workspaceStore } from './workspaces.js';

export interface Store {
  readonly workspaces: ReturnType<typeof workspaceStore>;
  readonly keys: ReturnType<typeof keyStore>;
  readonly destinations: ReturnType<typeof destinationStore>;
  readonly presets: ReturnType<typeof presetStore>;
  /** Resolves when the database answers a query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function createStore(db: Kysely<Database>, secrets: SecretBox): Store {
  return {
    workspaces: workspaceStore(db),
    keys: keyStore(db),
    destinations: destinationStore(db, secrets),
    presets: presetStore(db),
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

/** Opens the database of DATABASE_URL, brings its schema up to date and returns the store. */
export async function openStore(databaseUrl: string, secrets: SecretBox): Promise<Store> {
  const db = openDatabase(parseDatabaseUrl(databaseUrl));
  await migrateToLatest(db);
  return createStore(db, secrets);
}
