// Queries on the request path, written once with Kysely and compiled once, then run with each
// call's arguments straight on the driver: no query building, compiling, plugin passes or
// connection queue per call.
import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './tables.js';

/** SQL compiled once, with one call's parameters; `Row` is what it returns. */
export interface BoundQuery<Row = unknown> {
  /** What the statement does, as `keys.byHash`: its name in traces, never its parameters. */
  name: string;
  sql: string;
  parameters: unknown[];
  /** Rows as arrays of column values in select order: cheaper to build than objects. */
  arrays?: boolean;
  /** Carries the row type only; never set. */
  readonly row?: Row;
}

export interface QueryDriver {
  run<Row>(query: BoundQuery<Row>): Promise<Row[]>;
  /**
   * Reads (at most) one row, decides from it, and runs the write decided on, with nothing written
   * in between. `decide` must not wait on anything. The write must be conditional on what was
   * read (a revision) and return a row when it applies.
   * - SQLite: one synchronous IMMEDIATE transaction, so that nothing else can come in between.
   * - PostgreSQL: optimistic, without a transaction (two round trips): a write that returns no
   *   row lost a race with another writer, and the whole is done again under a row lock
   *   (`locking`, in a transaction), as is every write for a second after such a conflict.
   */
  readModifyWrite<Row, T>(
    read: { plain: BoundQuery<Row>; locking: BoundQuery<Row> },
    decide: (row: Row | undefined) => { result: T; write?: BoundQuery },
  ): Promise<T>;
}

/** Runs through Kysely's own connection handling; `toValue` adapts parameters to the driver. */
export function kyselyDriver(
  db: Kysely<Database>,
  toValue: (value: unknown) => unknown = (value) => value,
): QueryDriver {
  const compiled = (query: BoundQuery) => CompiledQuery.raw(query.sql, query.parameters.map(toValue));
  return {
    async run<Row>(query: BoundQuery<Row>) {
      const { rows } = await db.executeQuery<Record<string, unknown>>(compiled(query));
      return (query.arrays ? rows.map((row) => Object.values(row)) : rows) as Row[];
    },
    async readModifyWrite<Row, T>(
      read: { plain: BoundQuery<Row>; locking: BoundQuery<Row> },
      decide: (row: Row | undefined) => { result: T; write?: BoundQuery },
    ) {
      return db.transaction().execute(async (trx) => {
        const [row] = (await trx.executeQuery(compiled(read.locking))).rows as Row[];
        const { result, write } = decide(row);
        if (write) await trx.executeQuery(compiled(write));
        return result;
      });
    },
  };
}

export interface PreparedQuery<Args, Row> {
  (args: Args): Promise<Row[]>;
  bind(args: Args): BoundQuery<Row>;
}

const PLACEHOLDER = '\u0000argument:';

/**
 * `build` receives stand-ins for the arguments (strings that name them); the compiled query
 * keeps their positions, and each call puts its own arguments there.
 */
export function preparedQuery<Args extends object, Row>(
  driver: QueryDriver,
  name: string,
  build: (args: Args) => Compilable<Row>,
): PreparedQuery<Args, Row>;
/** The same, with each row as an array of its column values in select order. */
export function preparedQuery<Args extends object>(
  driver: QueryDriver,
  name: string,
  build: (args: Args) => Compilable<unknown>,
  rows: 'arrays',
): PreparedQuery<Args, unknown[]>;
export function preparedQuery<Args extends object, Row>(
  driver: QueryDriver,
  name: string,
  build: (args: Args) => Compilable<Row>,
  rows?: 'arrays',
): PreparedQuery<Args, Row> {
  const standIns = new Proxy({} as Args, { get: (_target, name) => `${PLACEHOLDER}${String(name)}` });
  const { sql, parameters } = build(standIns).compile();
  const argumentAt = parameters.map((value) =>
    typeof value === 'string' && value.startsWith(PLACEHOLDER) ? value.slice(PLACEHOLDER.length) : undefined,
  );
  const bind = (args: Args): BoundQuery<Row> => ({
    name,
    sql,
    arrays: rows === 'arrays',
    parameters: parameters.map((value, index) => {
      const name = argumentAt[index];
      return name === undefined ? value : args[name as keyof Args];
    }),
  });
  return Object.assign((args: Args) => driver.run(bind(args)), { bind });
}
