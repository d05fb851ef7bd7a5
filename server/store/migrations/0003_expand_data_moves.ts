// Contract 2.3.0, unchanged: what moving a database takes. A read-only switch that the database
// itself enforces on every write (the server's, the CLI's, another release's), and the progress
// of a copy into this database (copy-database), so that an interrupted copy resumes where it was.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

// What a refused write says (store/read-only.ts recognises it): PostgreSQL's own code for a write in
// a read-only transaction.
const MESSAGE = 'the database is read-only while it moves';
const SQLSTATE = '25006';

/** The tables whose rows a read-only database refuses to change. */
const DATA_TABLES = ['workspaces', 'api_keys', 'key_usage_daily', 'destinations', 'presets', 'preset_versions'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('service_state')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('read_only', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('read_only_since', 'varchar(32)')
    .execute();
  await sql`insert into service_state (id, read_only) values (1, ${sql.lit(false)})`.execute(db);

  await db.schema
    .createTable('copy_progress')
    .addColumn('table_name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('rows_copied', 'bigint', (c) => c.notNull())
    /** The primary key of the last row copied, as a JSON array; null before the first batch. */
    .addColumn('last_key', 'text')
    .addColumn('checksum', 'varchar(64)', (c) => c.notNull())
    .addColumn('done', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // A statement-level trigger: once per statement, however many rows. The function is volatile,
    // so it reads the switch as committed when the statement runs, after the statement's own lock.
    await sql`
      create function refuse_writes_when_read_only() returns trigger language plpgsql as $$
      begin
        if (select read_only from service_state where id = 1) then
          raise exception '${sql.raw(MESSAGE)}' using errcode = '${sql.raw(SQLSTATE)}';
        end if;
        return null;
      end $$`.execute(db);
    for (const table of DATA_TABLES)
      await sql`create trigger ${sql.id(`${table}_read_only`)} before insert or update or delete or truncate
        on ${sql.table(table)} for each statement execute function refuse_writes_when_read_only()`.execute(db);
    return;
  }
  // SQLite has row triggers only; its one writer at a time orders every write against the switch.
  for (const table of DATA_TABLES)
    for (const event of ['insert', 'update', 'delete'])
      await sql`create trigger ${sql.id(`${table}_read_only_${event}`)} before ${sql.raw(event)} on ${sql.table(table)}
        when (select read_only from service_state where id = 1)
        begin select raise(abort, '${sql.raw(MESSAGE)}'); end`.execute(db);
}
