// Queries on the request path, written once with Kysely and compiled once, then run with each
// call's arguments straight on the driver: no query building, compiling, plugin passes or
// connection queue per call. Profiling showed those costing more than the SQLite reads themselves.
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Runs SQL compiled once, with one call's parameters, and returns its rows. */
export type QueryRunner = (sql: string, parameters: readonly unknown[]) => Promise<unknown[]>;

/** Runs through Kysely itself: for a database this module did not open (its driver is not at hand). */
export function kyselyRunner(db: Kysely<Database>): QueryRunner {
  return async (sql, parameters) => (await db.executeQuery(CompiledQuery.raw(sql, [...parameters]))).rows;
}

const PLACEHOLDER = '\u0000argument:';

/**
 * `build` receives stand-ins for the arguments (strings that name them); the compiled query
 * keeps their positions, and each call puts its own arguments there.
 */
export function preparedQuery<Args extends object, Row>(
  run: QueryRunner,
  build: (args: Args) => Compilable<Row>,
): (args: Args) => Promise<Row[]> {
  const standIns = new Proxy({} as Args, { get: (_target, name) => `${PLACEHOLDER}${String(name)}` });
  const { sql, parameters } = build(standIns).compile();
  const argumentAt = parameters.map((value) => (typeof value === 'string' && value.startsWith(PLACEHOLDER) ? value.slice(PLACEHOLDER.length) : undefined));
  return (args) =>
    run(
      sql,
      parameters.map((value, index) => {
        const name = argumentAt[index];
        return name === undefined ? value : args[name as keyof Args];
      }),
    ) as Promise<Row[]>;
}
