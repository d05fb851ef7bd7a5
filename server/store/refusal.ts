// What the store refuses to do to a database, for a reason the user can act on: one line, said as
// it is (failure.ts), never a stack trace.

export class DatabaseRefusal extends Error {
  override name = 'DatabaseRefusal';
}
