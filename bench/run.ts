// The benchmark: throughput, p99 and CPU time per request of this server against four baselines
// measured in the same run (a raw node:http server, a bare Express 5 app returning the same bodies,
// that app behind express-openapi-validator as released, and, on SQLite, a straightforward
// implementation of the same operations on the same database), interleaved in rounds, medians
// reported as ratios; flat cost as data grows; memory; start-up; client overhead. With --ladder,
// instead: each layer of the server added to bare Express in turn, and what each one costs. Load
// stays on loopback, bounded in time, count and connections.
// With --hostile, instead: every input a client controls flooded (bench/hostile.ts), each against a
// plain request of the same operation.
// With --ladder --rungs a,b: those rungs and the rungs they add to, alone, for a layer too small for
// the whole ladder's noise (with more --rounds).
// Usage: npm run bench [-- --quick] [-- --json] [-- --ladder [--rungs id,...] [--rounds N] | --hostile]
// BENCH_POSTGRES_URL adds PostgreSQL.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgsOrExit } from '../scripts/cli-args.js';
import { projectRoot } from '../server/project-root.js';
import type { ClientOverhead } from './client-overhead.js';
import { BUILD_SCRIPTS, type HostileRow, hostileTable, runHostile, runPastAuthFailureLimit } from './hostile.js';
import { LADDER, type Rung } from './ladder-rungs.js';
import {
  captureBodies,
  measureFlatCost,
  measureLadder,
  measureThroughput,
  type RungResult,
  type Scenario,
} from './load-driver.js';
import {
  measureStartup,
  postgresDatabase,
  rssMb,
  runToEnd,
  type Started,
  serverNodeFlags,
  startServer,
  stopServer,
} from './processes.js';
import {
  type LadderReport,
  ladderTable,
  type Results,
  resultsTable,
  type SubjectReport,
  writeTableOfRecord,
} from './report.js';
import { median, medianInterval } from './stats.js';

const { values: flags } = parseArgsOrExit({
  options: {
    quick: { type: 'boolean' },
    json: { type: 'boolean' },
    ladder: { type: 'boolean' },
    hostile: { type: 'boolean' },
    rungs: { type: 'string' },
    rounds: { type: 'string' },
  },
});
const usageError = (message: string): never => {
  console.error(message);
  process.exit(2);
};
if ((flags.rungs !== undefined || flags.rounds !== undefined) && !flags.ladder)
  usageError('--rungs and --rounds go with --ladder.');
const rounds = flags.rounds === undefined ? 3 : Number(flags.rounds);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 200) usageError('--rounds: a whole number from 1 to 200.');
const climbed = flags.rungs === undefined ? LADDER : rungsWithTheirBases(flags.rungs.split(','));
const quick = flags.quick === true;
const settings = quick
  ? { rounds, durationSec: 1, connections: 8, bigCount: 100_000, latencySamples: 150, ladderRequests: 3000 }
  : { rounds, durationSec: 6, connections: 10, bigCount: 1_000_000, latencySamples: 500, ladderRequests: 10_000 };
const log = (message: string) => {
  if (!flags.json) process.stderr.write(`${message}\n`);
};

/** The rungs named and each one's base, in the ladder's order. */
function rungsWithTheirBases(ids: string[]): Rung[] {
  const unknown = ids.filter((id) => !LADDER.some((rung) => rung.id === id));
  if (unknown.length > 0 || ids.length === 0)
    usageError(`--rungs: unknown rung ${unknown.join(', ') || "''"}; one of ${LADDER.map((r) => r.id).join(', ')}.`);
  const bases = LADDER.filter((rung) => ids.includes(rung.id)).map((rung) => rung.base);
  return LADDER.filter((rung) => ids.includes(rung.id) || bases.includes(rung.id));
}

/** Every rung climbed started at once, then each scenario run on all of them, interleaved. */
async function climbLadder(
  label: string,
  scenarios: Scenario[],
  bodiesFile: string,
  databaseUrl: string,
  secretsKey: string,
  apiKey: string,
): Promise<LadderReport['operations']> {
  const rungs = new Map<string, Started>();
  try {
    for (const rung of climbed) {
      const script = rung.id === 'bare' ? 'dist/bench/servers/baseline-express.js' : 'dist/bench/servers/ladder.js';
      const args = rung.id === 'bare' ? [bodiesFile] : [rung.id, bodiesFile, databaseUrl];
      rungs.set(rung.id, await startServer(script, args, { BENCH_SECRETS_KEY: secretsKey }, serverNodeFlags));
    }
    const operations: LadderReport['operations'] = [];
    for (const scenario of scenarios) {
      log(`[${label}] ladder: ${scenario.name}...`);
      const measured = await measureLadder(settings, rungs, scenario, apiKey);
      operations.push({
        scenario: scenario.name,
        rungs: climbed.map((rung) => {
          const { cpuUs, cpuUsByRound, errors } = measured.get(rung.id) as RungResult;
          const base = rung.base === undefined ? undefined : measured.get(rung.base);
          // Each round's difference to the base's run in the same round, so that drift of the
          // machine between rounds cancels out.
          const differences = base && cpuUsByRound.map((cpu, round) => cpu - (base.cpuUsByRound[round] as number));
          return {
            label: rung.label,
            cpuUs,
            errors,
            marginalCpuUs: differences ? median(differences) : null,
            marginalInterval: differences ? medianInterval(differences) : null,
          };
        }),
      });
    }
    return operations;
  } finally {
    await Promise.all([...rungs.values()].map(stopServer));
  }
}

async function benchSubject(label: string, databaseUrl: string): Promise<SubjectReport | LadderReport> {
  const secretsKey = randomBytes(32).toString('hex');
  // The ladder measures no flat cost: it needs no large data.
  const bigCount = flags.ladder ? 0 : settings.bigCount;
  log(`[${label}] seeding (${bigCount.toLocaleString('en')} versions and usage records)...`);
  const seeded = await runToEnd('dist/bench/servers/seed.js', [databaseUrl, String(bigCount)], {
    BENCH_SECRETS_KEY: secretsKey,
  });
  const { managementKey, idleKeyHash, busyKeyHash, destinationId } = JSON.parse(seeded) as Record<string, string>;
  const subject = await startServer(
    'dist/bench/servers/subject.js',
    [databaseUrl],
    { BENCH_SECRETS_KEY: secretsKey },
    serverNodeFlags,
  );
  // The targets, as ratios to bare Express; on PostgreSQL, only PATCH has one.
  const onSqlite = label === 'sqlite';
  const scenarios: (Scenario & { target: number | null })[] = [
    { name: 'getKey', method: 'GET', path: `/api/v1/keys/${idleKeyHash}`, target: onSqlite ? 0.65 : null },
    {
      name: 'updateObservabilityDestination',
      method: 'PATCH',
      path: `/api/v1/observability/destinations/${destinationId}`,
      bodies: ['{"sampling_rate":0.5}', '{"sampling_rate":0.25}'],
      target: onSqlite ? 0.5 : 0.3,
    },
    {
      name: 'listPresetVersions limit=50',
      method: 'GET',
      path: '/api/v1/presets/small/versions?limit=50',
      target: onSqlite ? 0.55 : null,
    },
  ];
  const bodiesFile = join(mkdtempSync(join(tmpdir(), 'bench-bodies-')), 'bodies.json');
  writeFileSync(bodiesFile, JSON.stringify(await captureBodies(subject.port, scenarios, managementKey ?? '')));
  if (flags.ladder) {
    await stopServer(subject);
    return {
      database: label,
      operations: await climbLadder(label, scenarios, bodiesFile, databaseUrl, secretsKey, managementKey ?? ''),
    };
  }
  const baselines = {
    raw: await startServer('dist/bench/servers/baseline-http.js', [bodiesFile]),
    bare: await startServer('dist/bench/servers/baseline-express.js', [bodiesFile]),
    floor: await startServer('dist/bench/servers/baseline-validator.js', [bodiesFile]),
    // On the same database as the subject; it has SQLite statements only.
    ...(onSqlite && {
      straightforward: await startServer(
        'dist/bench/servers/straightforward.js',
        [databaseUrl],
        { BENCH_SECRETS_KEY: secretsKey },
        serverNodeFlags,
      ),
    }),
  };
  const contenders = { ...baselines, subject };

  const throughput: SubjectReport['throughput'] = [];
  for (const scenario of scenarios) {
    const measured = await measureThroughput(settings, contenders, scenario, managementKey ?? '');
    throughput.push({ scenario: scenario.name, target: scenario.target, ...measured });
    const toStraightforward =
      measured.ratioToStraightforward === null
        ? ''
        : `, ${measured.ratioToStraightforward.toFixed(2)}x the straightforward implementation (CPU per request ${measured.cpuRatioToStraightforward?.toFixed(2)}x)`;
    log(
      `[${label}] ${scenario.name}: ${measured.ratioToExpress.toFixed(2)}x bare Express, ${measured.ratioToFloor.toFixed(2)}x Express + released validator${toStraightforward}, ${measured.subjectCpuUs.toFixed(0)} µs CPU per request`,
    );
  }

  const flatCost: SubjectReport['flatCost'] = [];
  const pages: [string, string, string][] = [
    [
      'page at offset 0',
      '/api/v1/presets/small/versions?offset=0&limit=100',
      '/api/v1/presets/huge/versions?offset=0&limit=100',
    ],
    [
      `page at offset ${settings.bigCount - 100}`,
      '/api/v1/presets/small/versions?offset=0&limit=100',
      `/api/v1/presets/huge/versions?offset=${settings.bigCount - 100}&limit=100`,
    ],
    ['getKey', `/api/v1/keys/${idleKeyHash}`, `/api/v1/keys/${busyKeyHash}`],
  ];
  for (const [measure, smallPath, largePath] of pages) {
    const { smallMs, largeMs } = await measureFlatCost(
      settings,
      subject.port,
      smallPath,
      largePath,
      managementKey ?? '',
    );
    flatCost.push({ measure, smallMs, largeMs, ratio: largeMs / smallMs, target: measure === 'getKey' ? 1.2 : 2 });
    log(`[${label}] flat cost, ${measure}: ${(largeMs / smallMs).toFixed(2)}x`);
  }
  const report = { database: label, throughput, flatCost, rssMb: rssMb(subject.child.pid) };
  await Promise.all([subject, ...Object.values(baselines)].map(stopServer));
  return report;
}

const startedAt = Date.now();
if (flags.hostile) {
  const load = { count: quick ? 300 : 1200, concurrency: 4 };
  // A row over the target is measured twice more, between plain loads of its own (measureGroup).
  const options = {
    scripts: BUILD_SCRIPTS(serverNodeFlags),
    load,
    log,
    suspect: (row: HostileRow) => row.cpuRatio >= 1.5,
  };
  const rows = [...(await runHostile(options)), ...(await runPastAuthFailureLimit(options))];
  const run = { date: new Date().toISOString(), mode: quick ? 'quick' : 'full', load, rows };
  writeFileSync(join(projectRoot, 'bench', 'hostile.json'), `${JSON.stringify(run, null, 2)}\n`);
  if (flags.json) console.log(JSON.stringify(run));
  else
    console.log(
      `\n${hostileTable(rows, load.count)}\n\n(${run.mode} run, ${Math.round((Date.now() - startedAt) / 1000)} s; written to bench/hostile.json)`,
    );
  process.exit(0);
}
const reports = [await benchSubject('sqlite', `sqlite:${join(mkdtempSync(join(tmpdir(), 'bench-db-')), 'api.db')}`)];
if (process.env.BENCH_POSTGRES_URL) {
  const database = await postgresDatabase(process.env.BENCH_POSTGRES_URL);
  try {
    reports.push(await benchSubject('postgres', database.url));
  } finally {
    await database.drop();
  }
}
const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  memoryGb: Math.round(totalmem() / 2 ** 30),
  node: process.version,
};
if (flags.ladder) {
  const ladders = reports as LadderReport[];
  const table = ladderTable(ladders);
  const run = { date: new Date().toISOString(), mode: quick ? 'quick' : 'full', machine, settings, ladders };
  writeFileSync(join(projectRoot, 'bench', 'ladder.json'), `${JSON.stringify(run, null, 2)}\n`);
  if (flags.json) console.log(JSON.stringify(run));
  else
    console.log(
      `\n${table}\n\n(${run.mode} ladder, ${Math.round((Date.now() - startedAt) / 1000)} s; written to bench/ladder.json)`,
    );
  process.exit(0);
}
const subjects = reports as SubjectReport[];
log('start-up and client overhead...');
const startupMs = median([await measureStartup(), await measureStartup(), await measureStartup()]);
// In processes of their own, so that the harness's heap stays out of the timings; three of them,
// because one process's figure drifts with its own JIT and GC.
const clientRuns: ClientOverhead[] = [];
for (let run = 0; run < 3; run++) {
  const args = ['--json', '--calls', String(quick ? 300 : 2000), '--rounds', String(quick ? 3 : 7)];
  clientRuns.push(JSON.parse(await runToEnd('dist/bench/client-overhead.js', args, {})) as ClientOverhead);
}
const middle = clientRuns.toSorted((a, b) => a.medianRatio - b.medianRatio)[1] as ClientOverhead;

const results: Results = {
  date: new Date().toISOString(),
  mode: quick ? 'quick' : 'full',
  machine,
  settings,
  subjects,
  startup: { firstOkMs: startupMs, target: 1500 },
  client: { ...middle, processes: clientRuns.map((r) => r.medianRatio), target: 1.1 },
  durationSec: Math.round((Date.now() - startedAt) / 1000),
};
writeFileSync(join(projectRoot, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
const table = resultsTable(results);
if (flags.json) console.log(JSON.stringify(results));
else console.log(`\n${table}\n\n(${results.mode} run, ${results.durationSec} s; written to bench/results.json)`);
if (!quick) writeTableOfRecord(results, table);
