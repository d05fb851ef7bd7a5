// The store's one way to query is Kysely. A statement a request runs is a prepared query: built
// with Kysely and compiled once at start, then run with each call's arguments straight on the
// driver (SQLite's cached statements, PostgreSQL's named statements), with no query building,
// compiling, plugin passes or connection queue per call, its rows typed by its select. The rest
// (provisioning's and the CLI's writes, transactions of several statements) is Kysely as written.
//
// A prepared query declares its arguments by name and type. Its build function gets each as a
// Kysely expression (`Argument`), never as a value: TypeScript refuses one where a value is wanted
// (a comparison, arithmetic), and it throws when made into a string, a number or JSON. Preparing
// checks what compiling made of them: each argument a parameter of the SQL, and none inside
// another value. So a build that decides anything from an argument fails at start, rather than
// fixing one call's choice into the statement for every call. The one use left unseen is a bare
// truth test of an argument the SQL also takes: an argument is always truthy while building.
import { type Compilable, CompiledQuery, type Expression, type Kysely, type OperationNode, ValueNode } from 'kysely';
import type { CallTrace } from './call-trace.js';
import type { Database } from './tables.js';

/** SQL compiled once, with one call's parameters; `Row` is what it returns. */
export interface BoundQuery<Row = unknown> {
  /** What the statement does, as `keys.byHash`: its name in traces, never its parameters. */
  name: string;
  sql: string;
  parameters: unknown[];
  /** Carries the row type only; never set. */
  readonly row?: Row;
}

/** A `trace` given is a sampled request's: a traced driver records the call there, others ignore it. */
export interface QueryDriver {
  run<Row>(query: BoundQuery<Row>, trace?: CallTrace): Promise<Row[]>;
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
    read: RowRead<Row>,
    decide: (row: Row | undefined) => { result: T; write?: BoundQuery },
    trace?: CallTrace,
  ): Promise<T>;
}

/** The read of a read-modify-write, plain and under the row's lock, and the row it reads (`table/id`). */
export interface RowRead<Row> {
  plain: BoundQuery<Row>;
  locking: BoundQuery<Row>;
  row: string;
}

/** Runs through Kysely's own connection handling; `toValue` adapts parameters to the driver. */
export function kyselyDriver(
  db: Kysely<Database>,
  toValue: (value: unknown) => unknown = (value) => value,
): QueryDriver {
  const compiled = (query: BoundQuery) => CompiledQuery.raw(query.sql, query.parameters.map(toValue));
  return {
    async run<Row>(query: BoundQuery<Row>) {
      return (await db.executeQuery<Row>(compiled(query))).rows;
    },
    async readModifyWrite<Row, T>(
      read: RowRead<Row>,
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

/** An argument as a build function sees it: an expression of type T that compiles to a parameter. */
export class Argument<T> implements Expression<T> {
  constructor(
    readonly query: string,
    readonly name: string,
  ) {}

  /** Kysely's type marker; never set. */
  get expressionType(): T | undefined {
    return undefined;
  }

  /** The argument itself is the parameter's value in the compiled query, replaced by each call's own. */
  toOperationNode(): OperationNode {
    return ValueNode.create(this);
  }

  toString(): never {
    throw this.usedAsValue();
  }

  valueOf(): never {
    throw this.usedAsValue();
  }

  [Symbol.toPrimitive](): never {
    throw this.usedAsValue();
  }

  toJSON(): never {
    throw this.usedAsValue();
  }

  private usedAsValue(): Error {
    return new Error(
      `${this.query}: argument ${this.name} is used as a value while the query is built; it has none until the query runs`,
    );
  }
}

declare const declaredType: unique symbol;
/** An argument's declaration: its type only. */
export interface Declared<T> {
  readonly [declaredType]: T;
}

/** Declares an argument of type T (`{ hash: argument<string>() }`). */
export function argument<T>(): Declared<T> {
  return {} as Declared<T>;
}

export type Declarations = Record<string, Declared<unknown>>;
/** The values of one call, by the declarations' names and types. */
export type ArgumentValues<D extends Declarations> = { [K in keyof D]: D[K] extends Declared<infer T> ? T : never };
/** What a build function gets: each declared argument as an expression of its type. */
export type ArgumentExpressions<D extends Declarations> = {
  [K in keyof D]: D[K] extends Declared<infer T> ? Argument<T> : never;
};

export interface PreparedQuery<Args, Row> {
  (args: Args, trace?: CallTrace): Promise<Row[]>;
  bind(args: Args): BoundQuery<Row>;
}

/** Whether a parameter's value holds an argument anywhere inside it (in an array, an object). */
function holdsArgument(value: unknown): boolean {
  if (value instanceof Argument) return true;
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some(holdsArgument);
}

/**
 * Builds and compiles the query once, its arguments declared by name and type; each call binds its
 * own values where the arguments were, constants left as written. Throws, naming the query, when
 * an argument is not a parameter of the compiled SQL or is found inside another value.
 */
export function preparedQuery<D extends Declarations, Row>(
  driver: QueryDriver,
  name: string,
  declarations: D,
  build: (args: ArgumentExpressions<D>) => Compilable<Row>,
): PreparedQuery<ArgumentValues<D>, Row> {
  const expressions = new Map(Object.keys(declarations).map((key) => [key, new Argument(name, key)]));
  const { sql, parameters } = build(Object.fromEntries(expressions) as ArgumentExpressions<D>).compile();
  const argumentAt = parameters.map((value) => {
    if (value instanceof Argument && expressions.get(value.name) === value) return value.name;
    if (holdsArgument(value))
      throw new Error(`${name}: a parameter holds an argument inside a value, or another query's`);
    return undefined;
  });
  const unused = [...expressions.keys()].filter((key) => !argumentAt.includes(key));
  if (unused.length > 0)
    throw new Error(
      `${name}: argument ${unused.join(', ')} is no parameter of the compiled SQL (used as a value while building, or not at all)`,
    );
  const bind = (args: ArgumentValues<D>): BoundQuery<Row> => ({
    name,
    sql,
    parameters: parameters.map((value, index) => {
      const key = argumentAt[index];
      return key === undefined ? value : args[key as keyof D];
    }),
  });
  return Object.assign((args: ArgumentValues<D>, trace?: CallTrace) => driver.run(bind(args), trace), { bind });
}
