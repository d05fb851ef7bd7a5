// The read-only switch of a database about to move (README, "Moving to PostgreSQL"). The database
// enforces it: migration 0003's triggers refuse every write to a table of data while it is on,
// whoever writes (a server, the CLI, an older release), and reads go on as usual.
//
// Turning it on returns only once no write begun before it can still commit, so that a copy taken
// afterwards holds every write that was acknowledged. On SQLite that is at once: its one writer
// at a time means the switch's own write waits for every write before it. On PostgreSQL a write
// that read the switch before it was committed may still be running: the switch waits until every
// transaction older than itself has ended (each is bounded by the statement and idle-in-transaction
// timeouts of the servers' connections), as CREATE INDEX CONCURRENTLY waits for older snapshots.
import { type Kysely, sql } from 'kysely';
import { DatabaseRefusal } from './refusal.js';
import { sqliteCodeOf } from './sqlite-connection.js';
import type { Database } from './tables.js';

/** What migration 0003's triggers raise: PostgreSQL's code for a write in a read-only transaction, and their text. */
const READ_ONLY_SQLSTATE = '25006';
const READ_ONLY_MESSAGE = 'the database is read-only while it moves';

/** How long turning the switch on waits at most for the transactions older than it. */
export const READ_ONLY_WAIT_MS = 30_000;
const POLL_MS = 50;

/**
 * Whether an error is a write refused because the database is read-only: the switch's triggers,
 * or a PostgreSQL that is read-only itself (a standby). Answered 503 with Retry-After.
 */
export function isReadOnlyRefusal(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (code === READ_ONLY_SQLSTATE) return true;
  return (
    sqliteCodeOf(err)?.startsWith('SQLITE_CONSTRAINT') === true &&
    typeof message === 'string' &&
    message.includes(READ_ONLY_MESSAGE)
  );
}

export interface ReadOnlyState {
  read_only: boolean;
  /** When it was turned on; null while the database is writable. */
  since: string | null;
}

export function serviceStateStore(db: Kysely<Database>, dialect: 'sqlite' | 'postgres') {
  /** Waits until every transaction on the database that began before `after` has ended. */
  async function olderTransactionsEnded(after: string, waitMs: number): Promise<void> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const { rows } = await sql<{ pid: number; xact_start: string }>`
        select pid, xact_start::text as xact_start from pg_stat_activity
        where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()
          and xact_start is not null and xact_start < ${after}::timestamptz
        order by xact_start`.execute(db);
      const [oldest] = rows;
      if (oldest === undefined) return;
      if (Date.now() >= deadline)
        throw new DatabaseRefusal(
          `The database is read-only now, but ${rows.length} transaction(s) begun before it are still open after ${waitMs / 1000} s (the oldest: process ${oldest.pid}, since ${oldest.xact_start}); a write among them may still commit. End them (pg_terminate_backend), then run read-only again before you copy.`,
        );
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  return {
    async readOnly(): Promise<ReadOnlyState> {
      const row = await db
        .selectFrom('service_state')
        .select(['read_only', 'read_only_since'])
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
      return { read_only: Boolean(row.read_only), since: row.read_only_since };
    },

    /** Turns the switch on (once no older write can commit) or off; says what it was and what it is. */
    async setReadOnly(on: boolean, now: Date, waitMs = READ_ONLY_WAIT_MS): Promise<ReadOnlyState> {
      const before = await this.readOnly();
      if (before.read_only !== on)
        await db
          .updateTable('service_state')
          .set({ read_only: on, read_only_since: on ? now.toISOString() : null })
          .where('id', '=', 1)
          .execute();
      if (on && dialect === 'postgres') {
        const { rows } = await sql<{ at: string }>`select clock_timestamp()::text as at`.execute(db);
        await olderTransactionsEnded(rows[0]?.at ?? '', waitMs);
      }
      return this.readOnly();
    },
  };
}
