// Either end of a copy on PostgreSQL, each on a connection of its own: one REPEATABLE READ READ
// ONLY transaction is the reader's snapshot, and each batch is written with COPY ... FROM STDIN in
// a transaction with its progress (BENCHMARKS.md, "Copying a database", measures it against
// multi-row inserts).
import { once } from 'node:events';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { type CopiedTable, keyOf, type Row } from './copied-tables.js';
import {
  type BatchWriter,
  batchQuery,
  type Place,
  PROGRESS_COLUMNS,
  progressUpsert,
  type SnapshotReader,
} from './sides.js';

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

/** Heap pages a batch reads when the server reads ranges of them (TID range scans, PostgreSQL 14). */
const PAGES_PER_BATCH = 128;

export async function postgresSnapshot(url: string, connectTimeoutMs: number): Promise<SnapshotReader> {
  const client = await connect(url, connectTimeoutMs);
  await client.query('begin isolation level repeatable read read only');
  // The snapshot is taken at the transaction's first statement.
  const { rows: version } = await client.query<{ n: number }>("select current_setting('server_version_num')::int as n");
  const byPages = (version[0]?.n ?? 0) >= 140_000;
  /** The table's pages, as the snapshot sees them: a row it sees was written before it, in a page there was. */
  const pages = new Map<string, number>();
  const pagesOf = async (table: CopiedTable) => {
    let count = pages.get(table.name);
    if (count === undefined) {
      const { rows } = await client.query<{ n: string }>(
        `select pg_relation_size('"${table.name}"') / current_setting('block_size')::int as n`,
      );
      count = Number(rows[0]?.n ?? 0);
      pages.set(table.name, count);
    }
    return count;
  };
  const columns = (table: CopiedTable) => table.columns.map((column) => `"${column}"`).join(', ');
  return {
    async count(table) {
      const { rows } = await client.query<{ n: string }>(`select count(*) as n from "${table.name}"`);
      return Number(rows[0]?.n ?? 0);
    },
    // In the order of the heap, a range of pages at a time: in primary-key order each row is a page
    // of its own to fetch, which makes a large table several times slower to read.
    async batch(table, from, limit) {
      if (!byPages) {
        const { text, values } = batchQuery(table, from, limit, placeholder);
        const rows = (await client.query<Row>({ text, values })).rows;
        const last = rows.at(-1);
        return { rows, next: rows.length === limit && last ? (keyOf(table, last) as Place) : null };
      }
      const first = Number(from?.[0] ?? 0);
      const end = first + PAGES_PER_BATCH;
      const { rows } = await client.query<Row>(
        `select ${columns(table)} from "${table.name}" where ctid >= '(${first},0)'::tid and ctid < '(${end},0)'::tid`,
      );
      return { rows, next: end < (await pagesOf(table)) ? [end] : null };
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
