// The databases a run of the benchmark measures, by its --database option and BENCH_POSTGRES_URL.
export type DatabaseKind = 'sqlite' | 'postgres';

/**
 * The databases a run measures: SQLite, and PostgreSQL when BENCH_POSTGRES_URL names a server;
 * or the one `--database` names. A message when that cannot be.
 */
export function databasesToRun(only: string | undefined, postgresUrl: string | undefined): DatabaseKind[] | string {
  if (only === undefined) return postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];
  if (only === 'sqlite') return ['sqlite'];
  if (only !== 'postgres') return `--database: sqlite or postgres (got ${only}).`;
  return postgresUrl
    ? ['postgres']
    : '--database postgres needs BENCH_POSTGRES_URL, the URL of a server where the run may create a database.';
}
