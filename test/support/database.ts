// The database a test runs on: SQLite in memory, or, in the `postgres` project
// (TEST_DATABASE=postgres), a freshly created PostgreSQL database dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const postgresAdminUrl = process.env.TEST_POSTGRES_URL;
export const testDatabaseKind: 'sqlite' | 'postgres' = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  if (!postgresAdminUrl) throw new Error('TEST_POSTGRES_URL is not set');
  const client = new pg.Client({ connectionString: postgresAdminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function createPostgresDatabase(): Promise<TestDatabase> {
  const name = `api_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  return {
    url: withDatabase(postgresAdminUrl ?? '', name),
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDatabaseKind === 'postgres') return createPostgresDatabase();
  return { url: 'sqlite::memory:', drop: async () => undefined };
}

/** Rows of a table read with plain SQL, bypassing the store (to see what is really at rest). */
export async function rawRows(databaseUrl: string, table: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(`SELECT * FROM ${table}`)).rows;
  } finally {
    await client.end();
  }
}
