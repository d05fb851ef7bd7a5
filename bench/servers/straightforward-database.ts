// The straightforward baseline's database, on the seed's schema, as such code would reach it:
// - SQLite: the seed's file through better-sqlite3, with the server's own settings, its statements
//   prepared once, an update as one synchronous transaction;
// - PostgreSQL: a `pg.Pool` of 10 as pg's README shows it, named parameterized queries, and an
//   update as BEGIN; SELECT … FOR UPDATE; UPDATE; COMMIT on one connection.
// Rows come back as each driver gives them; the server's code turns them into answers alike.
import Database from 'better-sqlite3';
import pg from 'pg';
import { DESTINATION_SETTINGS } from '../../server/domain/destination-update.js';

export type Row = Record<string, string | number | boolean | null>;
export interface KeyCredentialsRow {
  id: string;
  workspace_id: string;
  kind: string;
  disabled: number | boolean;
  expires_at: string | null;
}
export interface UsageArguments {
  keyId: string;
  from: string;
  day: string;
  week: string;
  month: string;
}
/** The columns an update writes, by name. */
export type DestinationWrite = Record<string, string | number | null> & { id: string };

export interface StraightforwardDatabase {
  keyByHash(hash: string): Promise<KeyCredentialsRow | undefined>;
  keyInWorkspace(hash: string, workspaceId: string): Promise<Row | undefined>;
  usage(args: UsageArguments): Promise<Row | undefined>;
  /** Reads the row under a lock, lets `change` decide the write (or throw), writes it, commits. */
  updateDestination<T>(
    id: string,
    workspaceId: string,
    change: (row: Row | undefined) => { write: DestinationWrite; result: T },
  ): Promise<T>;
  presetId(workspaceId: string, slug: string): Promise<string | undefined>;
  versionCount(presetId: string): Promise<number>;
  versions(presetId: string, limit: number, offset: number): Promise<Row[]>;
  close(): Promise<void>;
}

const USAGE_SUMS = `coalesce(sum(CASE WHEN day >= $2 THEN usage END), 0) AS usage_daily,
  coalesce(sum(CASE WHEN day >= $3 THEN usage END), 0) AS usage_weekly,
  coalesce(sum(CASE WHEN day >= $4 THEN usage END), 0) AS usage_monthly,
  coalesce(sum(CASE WHEN day >= $2 THEN byok_usage END), 0) AS byok_usage_daily,
  coalesce(sum(CASE WHEN day >= $3 THEN byok_usage END), 0) AS byok_usage_weekly,
  coalesce(sum(CASE WHEN day >= $4 THEN byok_usage END), 0) AS byok_usage_monthly`;
const SQL = {
  keyByHash: 'SELECT id, workspace_id, kind, disabled, expires_at FROM api_keys WHERE hash = $1',
  keyInWorkspace: 'SELECT * FROM api_keys WHERE hash = $1 AND workspace_id = $2',
  usage: `SELECT ${USAGE_SUMS} FROM key_usage_daily WHERE key_id = $1 AND day >= $5 AND day <= $2`,
  destination: 'SELECT * FROM destinations WHERE id = $1 AND workspace_id = $2',
  preset: 'SELECT id FROM presets WHERE workspace_id = $1 AND slug = $2',
  versionCount: 'SELECT count(*) AS n FROM preset_versions WHERE preset_id = $1',
  versions: `SELECT id, preset_id, version, config, system_prompt, creator_id, created_at, updated_at
    FROM preset_versions WHERE preset_id = $1 ORDER BY version LIMIT $2 OFFSET $3`,
};
const WRITTEN_COLUMNS = [...DESTINATION_SETTINGS, 'regions', 'config_sealed', 'revision', 'updated_at'];
const WRITE_DESTINATION = `UPDATE destinations SET ${WRITTEN_COLUMNS.map((column, i) => `${column} = $${i + 2}`).join(', ')} WHERE id = $1`;
const usageValues = (a: UsageArguments) => [a.keyId, a.day, a.week, a.month, a.from];
const writeValues = (write: DestinationWrite) => [write.id, ...WRITTEN_COLUMNS.map((column) => write[column] ?? null)];

function openSqlite(filename: string): StraightforwardDatabase {
  const db = new Database(filename);
  // The server's own settings, so that a PATCH compares code, not durability.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // SQLite takes $N parameters too; better-sqlite3 binds them by number from an object.
  const byNumber = (values: unknown[]) => Object.fromEntries(values.map((value, i) => [String(i + 1), value]));
  const prepare = (text: string) => db.prepare(text);
  const statements = Object.fromEntries(Object.entries(SQL).map(([name, text]) => [name, prepare(text)])) as Record<
    keyof typeof SQL,
    Database.Statement
  >;
  const writeDestination = prepare(WRITE_DESTINATION);
  const get = (name: keyof typeof SQL, values: unknown[]) => statements[name].get(byNumber(values)) as Row | undefined;
  return {
    keyByHash: async (hash) => get('keyByHash', [hash]) as KeyCredentialsRow | undefined,
    keyInWorkspace: async (hash, workspaceId) => get('keyInWorkspace', [hash, workspaceId]),
    usage: async (args) => get('usage', usageValues(args)),
    async updateDestination(id, workspaceId, change) {
      return db.transaction(() => {
        const { write, result } = change(get('destination', [id, workspaceId]));
        writeDestination.run(byNumber(writeValues(write)));
        return result;
      })();
    },
    presetId: async (workspaceId, slug) => get('preset', [workspaceId, slug])?.id as string | undefined,
    versionCount: async (presetId) => Number(get('versionCount', [presetId])?.n ?? 0),
    versions: async (presetId, limit, offset) => statements.versions.all(byNumber([presetId, limit, offset])) as Row[],
    close: async () => {
      db.close();
    },
  };
}

function openPostgres(url: string): StraightforwardDatabase {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const query = async (name: keyof typeof SQL, values: unknown[]) =>
    (await pool.query<Row>({ name, text: SQL[name], values })).rows;
  return {
    keyByHash: async (hash) => (await query('keyByHash', [hash]))[0] as KeyCredentialsRow | undefined,
    keyInWorkspace: async (hash, workspaceId) => (await query('keyInWorkspace', [hash, workspaceId]))[0],
    usage: async (args) => (await query('usage', usageValues(args)))[0],
    async updateDestination(id, workspaceId, change) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const { rows } = await client.query<Row>({
          name: 'destinationForUpdate',
          text: `${SQL.destination} FOR UPDATE`,
          values: [id, workspaceId],
        });
        const { write, result } = change(rows[0]);
        await client.query({ name: 'writeDestination', text: WRITE_DESTINATION, values: writeValues(write) });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      } finally {
        client.release();
      }
    },
    presetId: async (workspaceId, slug) => (await query('preset', [workspaceId, slug]))[0]?.id as string | undefined,
    versionCount: async (presetId) => Number((await query('versionCount', [presetId]))[0]?.n ?? 0),
    versions: (presetId, limit, offset) => query('versions', [presetId, limit, offset]),
    close: () => pool.end(),
  };
}

/** The database of a `sqlite:` or `postgres:` URL, as the server is given it. */
export function openStraightforwardDatabase(databaseUrl: string): StraightforwardDatabase {
  if (databaseUrl.startsWith('sqlite:')) return openSqlite(databaseUrl.slice('sqlite:'.length));
  if (/^postgres(ql)?:/.test(databaseUrl)) return openPostgres(databaseUrl);
  throw new Error(
    `the straightforward implementation serves sqlite: and postgres: URLs (got ${databaseUrl.split(':')[0]}:)`,
  );
}
