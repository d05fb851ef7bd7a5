// Either end of a copy on PostgreSQL, each on a connection of its own: one REPEATABLE READ READ
// ONLY transaction is the reader's snapshot, and each batch is written with COPY ... FROM STDIN in
// a transaction with its progress (BENCHMARKS.md, "Copying a database", measures it against
// multi-row inserts).
import { once } from 'node:events';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Row } from './copied-tables.js';
import { type BatchWriter, batchQuery, PROGRESS_COLUMNS, progressUpsert, type SnapshotReader } from './sides.js';

const placeholder = (n: number) => `$${n}`;

/** The waits of a copy's own sessions: a batch is small, so a statement that takes longer is stuck. */
export const COPY_SESSION_TIMEOUTS = { statementMs: 60_000, lockMs: 10_000, idleInTransactionMs: 60_000 };

async function connect(url: string, connectTimeoutMs: number): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: connectTimeoutMs,
    statement_timeout: COPY_SESSION_TIMEOUTS.statementMs,
    lock_timeout: COPY_SESSION_TIMEOUTS.lockMs,
    idle_in_transaction_session_timeout: COPY_SESSION_TIMEOUTS.idleInTransactionMs,
  });
  // An error of the idle connection (the server gone) fails the next query; it must not end the process.
  client.on('error', () => {});
  await client.connect();
  return client;
}

export async function postgresSnapshot(url: string, connectTimeoutMs: number): Promise<SnapshotReader> {
  const client = await connect(url, connectTimeoutMs);
  await client.query('begin isolation level repeatable read read only');
  // The snapshot is taken at the transaction's first statement.
  await client.query('select 1 from kysely_migration limit 1');
  return {
    async count(table) {
      const { rows } = await client.query<{ n: string }>(`select count(*) as n from "${table.name}"`);
      return Number(rows[0]?.n ?? 0);
    },
    async rowsAfter(table, after, limit) {
      const { text, values } = batchQuery(table, after, limit, placeholder);
      return (await client.query<Row>({ text, values })).rows;
    },
    async close() {
      await client.query('commit').catch(() => {});
      await client.end();
    },
  };
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value in COPY's text format. */
export function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return String(value).replace(/[\\\t\n\r]/g, (character) => ESCAPES[character] ?? character);
}

export async function postgresWriter(url: string, connectTimeoutMs: number): Promise<BatchWriter> {
  const client = await connect(url, connectTimeoutMs);
  const upsert = progressUpsert(placeholder);
  return {
    async write(table, rows, progress) {
      await client.query('begin');
      try {
        if (rows.length > 0) {
          const columns = table.columns.map((column) => `"${column}"`).join(', ');
          const stream = client.query(copyFrom(`copy "${table.name}" (${columns}) from stdin`));
          const text = rows.map((row) => `${row.map(copyText).join('\t')}\n`).join('');
          const finished = once(stream, 'finish');
          stream.end(text);
          await finished;
        }
        await client.query({ text: upsert, values: PROGRESS_COLUMNS.map((column) => progress[column]) });
        await client.query('commit');
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw err;
      }
    },
    async close() {
      await client.end();
    },
  };
}
