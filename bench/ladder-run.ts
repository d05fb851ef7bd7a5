// npm run bench -- --ladder (or npm run bench:ladder): what each layer of the server costs. Bare
// Express, then the server's layers added one at a time (bench/shared/ladder-rungs.ts), each rung answering
// from the subject's captured bodies until the last, the server itself; a fixed number of requests
// per rung and round, interleaved, and each rung's CPU time per request less its base's in the same
// round. With --rungs a,b: those rungs and the rungs they add to, alone, for a layer too small for
// the whole ladder's noise (with more --rounds). Written to bench/ladder.json.
// Usage: npm run bench:ladder [-- --quick] [-- --json] [-- --rungs id,...] [-- --rounds N]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgsOrMessage } from '../scripts/shared/cli-args.js';
import { projectRoot } from '../server/project-root.js';
import { runMain } from '../server/run-main.js';
import { measureLadder } from './load-driver.js';
import { type LadderReport, ladderTable } from './report.js';
import { type DatabaseKind, databasesToRun } from './shared/databases.js';
import { LADDER, type Rung } from './shared/ladder-rungs.js';
import { startOtlpSink } from './shared/otlp-sink.js';
import { type Started, serverNodeFlags, startServer, stopServer } from './shared/processes.js';
import { median, medianInterval } from './shared/stats.js';
import {
  type BenchSettings,
  benchSettings,
  machine,
  onEachDatabase,
  progressLog,
  RUN_OPTIONS,
  seededSubject,
} from './subject-setup.js';

/** The rungs named and each one's base, in the ladder's order; the line that says why not. */
function rungsWithTheirBases(ids: string[]): Rung[] | string {
  const unknown = ids.filter((id) => !LADDER.some((rung) => rung.id === id));
  if (unknown.length > 0 || ids.length === 0)
    return `--rungs: unknown rung ${unknown.join(', ') || "''"}; one of ${LADDER.map((r) => r.id).join(', ')}.`;
  const bases = LADDER.filter((rung) => ids.includes(rung.id)).map((rung) => rung.base);
  return LADDER.filter((rung) => ids.includes(rung.id) || bases.includes(rung.id));
}

/** A rung's server, with the node flags of the server itself, bare Express included; the traced one exports to `collector`. */
function rungServer(
  rung: Rung,
  bodiesFile: string,
  databaseUrl: string,
  secretsKey: string,
  collector: string,
): Promise<Started> {
  const [script, args] =
    rung.id === 'bare'
      ? ['dist/bench/servers/baseline.js', ['express', bodiesFile]]
      : ['dist/bench/servers/ladder.js', [rung.id, bodiesFile, databaseUrl]];
  const tracing: Record<string, string> =
    rung.server === 'with tracing'
      ? {
          OTEL_TRACES_EXPORTER: 'otlp',
          OTEL_EXPORTER_OTLP_ENDPOINT: collector,
          OTEL_TRACES_SAMPLER: 'traceidratio',
          OTEL_TRACES_SAMPLER_ARG: String(rung.sampled ?? 1),
        }
      : {};
  return startServer(script, args, { BENCH_SECRETS_KEY: secretsKey, ...tracing }, serverNodeFlags);
}

/** Every rung climbed started at once, then each scenario run on all of them, interleaved. */
async function climbLadder(
  label: string,
  databaseUrl: string,
  climbed: Rung[],
  settings: BenchSettings,
  log: (message: string) => void,
): Promise<LadderReport> {
  // The ladder measures no flat cost: it needs no large data.
  const seeded = await seededSubject(label, databaseUrl, 0, log);
  await stopServer(seeded.subject);
  const rungs = new Map<string, Started>();
  const collector = await startOtlpSink();
  try {
    for (const rung of climbed)
      rungs.set(rung.id, await rungServer(rung, seeded.bodiesFile, databaseUrl, seeded.secretsKey, collector.url));
    const operations: LadderReport['operations'] = [];
    for (const scenario of seeded.scenarios) {
      log(`[${label}] ladder: ${scenario.name}...`);
      const measured = await measureLadder(settings, rungs, scenario, seeded.managementKey);
      operations.push({
        scenario: scenario.name,
        rungs: climbed.map((rung) => {
          const result = measured.get(rung.id);
          if (!result) throw new Error(`rung ${rung.id} was not measured`);
          const base = rung.base === undefined ? undefined : measured.get(rung.base);
          // Each round's difference to the base's run in the same round, so that drift of the
          // machine between rounds cancels out.
          const differences = base && result.cpuUsByRound.map((cpu, round) => cpu - (base.cpuUsByRound[round] ?? 0));
          const ratios =
            base && result.cpuUsByRound.map((cpu, round) => cpu / (base.cpuUsByRound[round] ?? Number.NaN));
          return {
            label: rung.label,
            cpuUs: result.cpuUs,
            errors: result.errors,
            marginalCpuUs: differences ? median(differences) : null,
            marginalInterval: differences ? medianInterval(differences) : null,
            ratioToBase: ratios ? median(ratios) : null,
            ratioTarget: rung.ratioTarget ?? null,
          };
        }),
      });
    }
    log(`[${label}] ladder: the traced rung exported ${collector.received()} batches of spans`);
    return { database: label, operations };
  } finally {
    await Promise.all([...rungs.values()].map(stopServer));
    await collector.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const parsed = parseArgsOrMessage({
    args: argv,
    options: RUN_OPTIONS,
  });
  if (typeof parsed === 'string') {
    console.error(parsed);
    return 2;
  }
  const { values: flags } = parsed;
  const rounds = flags.rounds === undefined ? 3 : Number(flags.rounds);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 200) {
    console.error('--rounds: a whole number from 1 to 200.');
    return 2;
  }
  const climbed = flags.rungs === undefined ? LADDER : rungsWithTheirBases(flags.rungs.split(','));
  if (typeof climbed === 'string') {
    console.error(climbed);
    return 2;
  }
  const startedAt = Date.now();
  const quick = flags.quick === true;
  const settings = benchSettings(quick, rounds);
  const log = progressLog(flags.json === true);
  const ladders = await onEachDatabase(
    databasesToRun(undefined, process.env.BENCH_POSTGRES_URL) as DatabaseKind[],
    (label, databaseUrl) => climbLadder(label, databaseUrl, climbed, settings, log),
  );
  const run = { date: new Date().toISOString(), mode: quick ? 'quick' : 'full', machine: machine(), settings, ladders };
  writeFileSync(join(projectRoot, 'bench', 'ladder.json'), `${JSON.stringify(run, null, 2)}\n`);
  if (flags.json) console.log(JSON.stringify(run));
  else
    console.log(
      `\n${ladderTable(ladders)}\n\n(${run.mode} ladder, ${Math.round((Date.now() - startedAt) / 1000)} s; written to bench/ladder.json)`,
    );
  return 0;
}

await runMain(main, import.meta.url);
