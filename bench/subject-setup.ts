// What the benchmark and its ladder both start from: the settings of a run, each database the run
// measures, the server under test on a seeded copy of it, the scenarios with their targets, and the
// subject's answers to them (bodies.json), which the baselines and the ladder's rungs send back.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { captureBodies, type LoadSettings } from './load-driver.js';
import type { DatabaseKind } from './shared/databases.js';
import { NO_OP_PATCH_BODY, writingPatchBody } from './shared/patch-bodies.js';
import { postgresDatabase, runToEnd, type Started, serverNodeFlags, startServer } from './shared/processes.js';
import type { Scenario } from './shared/scenarios.js';

export interface BenchSettings extends LoadSettings {
  /** Rows of the large preset and of the busy key's usage, for the flat cost. */
  bigCount: number;
}

/** The options of a run of the benchmark and of its ladder (`npm run bench` hands them on to the ladder's run). */
export const RUN_OPTIONS = {
  quick: { type: 'boolean' },
  json: { type: 'boolean' },
  rungs: { type: 'string' },
  rounds: { type: 'string' },
} as const;

export function benchSettings(quick: boolean, rounds: number): BenchSettings {
  return quick
    ? { rounds, durationSec: 2, connections: 8, bigCount: 100_000, latencySamples: 150, ladderRequests: 3000 }
    : { rounds, durationSec: 6, connections: 10, bigCount: 1_000_000, latencySamples: 500, ladderRequests: 10_000 };
}

/** Progress on stderr, unless the output is JSON for a tool. */
export function progressLog(json: boolean): (message: string) => void {
  return (message) => {
    if (!json) process.stderr.write(`${message}\n`);
  };
}

export function machine() {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  };
}

/** `bench` on a new database of each kind: a SQLite file, a database on BENCH_POSTGRES_URL's server. */
export async function onEachDatabase<T>(
  databases: DatabaseKind[],
  bench: (label: string, databaseUrl: string) => Promise<T>,
): Promise<T[]> {
  const reports: T[] = [];
  if (databases.includes('sqlite'))
    reports.push(await bench('sqlite', `sqlite:${join(mkdtempSync(join(tmpdir(), 'bench-db-')), 'api.db')}`));
  if (databases.includes('postgres') && process.env.BENCH_POSTGRES_URL) {
    const database = await postgresDatabase(process.env.BENCH_POSTGRES_URL);
    try {
      reports.push(await bench('postgres', database.url));
    } finally {
      await database.drop();
    }
  }
  return reports;
}

/** The targets of a scenario on its database (issues 46 and 60); null where none is set. */
export interface ScenarioTargets {
  /** Least ratio of req/s to the empty Express app behind the released validator (the stock floor). */
  floor: number | null;
  /** Least ratio of the stock floor's CPU time per request to this server's. */
  floorCpu: number | null;
  /** Least ratio of req/s to the straightforward implementation on the same database. */
  straightforward: number | null;
  /** Greatest ratio of p99 latency to the straightforward implementation's. */
  straightforwardP99: number | null;
  /** Greatest ratio of p99 latency to bare Express's. */
  p99: number;
}

export type TargetedScenario = Scenario & { targets: ScenarioTargets };

export interface SeededSubject {
  subject: Started;
  secretsKey: string;
  managementKey: string;
  idleKeyHash: string;
  busyKeyHash: string;
  scenarios: TargetedScenario[];
  /** The subject's answer to each scenario, by method and URL. */
  bodiesFile: string;
}

/** The server under test on `databaseUrl`, seeded with `bigCount` rows, and its answers captured. */
export async function seededSubject(
  label: string,
  databaseUrl: string,
  bigCount: number,
  log: (message: string) => void,
): Promise<SeededSubject> {
  const secretsKey = randomBytes(32).toString('hex');
  log(`[${label}] seeding (${bigCount.toLocaleString('en')} versions and usage records)...`);
  const seeded = JSON.parse(
    await runToEnd('dist/bench/servers/seed.js', [databaseUrl, String(bigCount)], { BENCH_SECRETS_KEY: secretsKey }),
  ) as Record<string, string>;
  const env = { BENCH_SECRETS_KEY: secretsKey };
  const subject = await startServer('dist/bench/servers/subject.js', [databaseUrl], env, serverNodeFlags);
  const managementKey = seeded.managementKey ?? '';
  const idleKeyHash = seeded.idleKeyHash ?? '';
  const onSqlite = label === 'sqlite';
  // Against the stock floor the target is CPU per request (the req/s ratio is shown, not judged),
  // on SQLite, where no driver's protocol adds to it (BENCHMARKS.md, "PostgreSQL first").
  const targets = (floorCpu: number | null): ScenarioTargets => ({
    floor: null,
    floorCpu: onSqlite ? floorCpu : null,
    straightforward: 1.3,
    straightforwardP99: 1,
    p99: onSqlite ? 2 : 3,
  });
  const spreadIds = (seeded.spreadDestinationIds ?? '').split(',').filter(Boolean);
  const scenarios: TargetedScenario[] = [
    { name: 'getKey', method: 'GET', path: `/api/v1/keys/${idleKeyHash}`, targets: targets(0.7) },
    {
      name: 'updateObservabilityDestination',
      method: 'PATCH',
      path: `/api/v1/observability/destinations/${seeded.destinationId}`,
      body: writingPatchBody,
      targets: targets(null),
    },
    {
      name: 'listPresetVersions limit=50',
      method: 'GET',
      path: '/api/v1/presets/small/versions?limit=50',
      targets: targets(0.6),
    },
    // Every connection writing one row is the case above; PATCHes of many rows seldom meet.
    {
      name: `updateObservabilityDestination, ${spreadIds.length} destinations`,
      method: 'PATCH',
      path: `/api/v1/observability/destinations/${spreadIds[0]}`,
      paths: spreadIds.map((id) => `/api/v1/observability/destinations/${id}`),
      body: writingPatchBody,
      targets: targets(null),
    },
    // Past its first request, each finds its value stored and writes nothing: a figure of the
    // no-op, not of a write.
    {
      name: 'updateObservabilityDestination, no-op (the value stored already)',
      method: 'PATCH',
      path: `/api/v1/observability/destinations/${seeded.destinationId}`,
      bodies: [NO_OP_PATCH_BODY],
      // Against a baseline that writes every time, a ratio of a no-op is no target.
      targets: { ...targets(null), straightforward: null, straightforwardP99: null },
    },
  ];
  const bodiesFile = join(mkdtempSync(join(tmpdir(), 'bench-bodies-')), 'bodies.json');
  writeFileSync(bodiesFile, JSON.stringify(await captureBodies(subject.port, scenarios, managementKey)));
  return {
    subject,
    secretsKey,
    managementKey,
    idleKeyHash,
    busyKeyHash: seeded.busyKeyHash ?? '',
    scenarios,
    bodiesFile,
  };
}
