// npm run bench: throughput, p99 and CPU time per request of this server against the baselines
// measured in the same run (bench/measure-subject.ts), interleaved in rounds, medians reported as
// ratios; flat cost as data grows; memory; start-up; client overhead. Load stays on loopback,
// bounded in time, count and connections. Written to bench/results.json, and a full run's table to
// BENCHMARKS.md. BENCH_POSTGRES_URL adds PostgreSQL.
// --ladder runs bench/ladder-run.ts instead, --hostile bench/hostile-run.ts, with the other
// options. --rounds sets the interleaved rounds (5 by default), --database runs one database only.
// Usage: npm run bench [-- --quick] [-- --json] [-- --rounds N] [-- --database sqlite|postgres]
// [-- --ladder [--rungs id,...] [--rounds N] | --hostile]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgsOrMessage } from '../scripts/shared/cli-args.js';
import { projectRoot } from '../server/project-root.js';
import { runMain } from '../server/run-main.js';
import type { ClientOverhead } from './client-overhead.js';
import { main as hostileMain } from './hostile-run.js';
import { main as ladderMain } from './ladder-run.js';
import { measureSubject } from './measure-subject.js';
import { type Results, resultsTable, writeTableOfRecord } from './report.js';
import { databasesToRun } from './shared/databases.js';
import { measureStartup, runToEnd } from './shared/processes.js';
import { median } from './shared/stats.js';
import { benchSettings, machine, onEachDatabase, progressLog, RUN_OPTIONS } from './subject-setup.js';

/** The client's overhead in processes of its own, so that the harness's heap stays out of the timings. */
async function clientOverhead(quick: boolean): Promise<Results['client']> {
  // Three processes, because one process's figure drifts with its own JIT and GC.
  const runs: ClientOverhead[] = [];
  for (let run = 0; run < 3; run++) {
    const args = ['--json', '--calls', String(quick ? 300 : 2000), '--rounds', String(quick ? 3 : 7)];
    runs.push(JSON.parse(await runToEnd('dist/bench/client-overhead.js', args, {})) as ClientOverhead);
  }
  const [, middle] = runs.toSorted((a, b) => a.medianRatio - b.medianRatio);
  if (!middle) throw new Error('no client overhead measured');
  return { ...middle, processes: runs.map((r) => r.medianRatio), target: 1.1 };
}

export async function main(argv: string[]): Promise<number> {
  const parsed = parseArgsOrMessage({
    args: argv,
    options: {
      ...RUN_OPTIONS,
      ladder: { type: 'boolean' },
      hostile: { type: 'boolean' },
      database: { type: 'string' },
    },
  });
  if (typeof parsed === 'string') {
    console.error(parsed);
    return 2;
  }
  const { values: flags } = parsed;
  // The other runs take the same options but their own flag.
  const others = argv.filter((arg) => arg !== '--ladder' && arg !== '--hostile');
  if (flags.ladder && flags.hostile) {
    console.error('--ladder and --hostile are two runs: one at a time.');
    return 2;
  }
  if (flags.ladder) return ladderMain(others);
  if (flags.rungs !== undefined) {
    console.error('--rungs goes with --ladder.');
    return 2;
  }
  const rounds = flags.rounds === undefined ? 5 : Number(flags.rounds);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 200) {
    console.error('--rounds: a whole number from 1 to 200.');
    return 2;
  }
  const databases = databasesToRun(flags.database, process.env.BENCH_POSTGRES_URL);
  if (typeof databases === 'string') {
    console.error(databases);
    return 2;
  }
  if (flags.hostile) return hostileMain(others);

  const startedAt = Date.now();
  const quick = flags.quick === true;
  const settings = benchSettings(quick, rounds);
  const log = progressLog(flags.json === true);
  const subjects = await onEachDatabase(databases, (label, databaseUrl) =>
    measureSubject(label, databaseUrl, settings, log),
  );
  log('start-up and client overhead...');
  const startupMs = median([await measureStartup(), await measureStartup(), await measureStartup()]);
  const results: Results = {
    date: new Date().toISOString(),
    mode: quick ? 'quick' : 'full',
    machine: machine(),
    settings,
    subjects,
    startup: { firstOkMs: startupMs, target: 1000 },
    client: await clientOverhead(quick),
    durationSec: Math.round((Date.now() - startedAt) / 1000),
  };
  writeFileSync(join(projectRoot, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const table = resultsTable(results);
  if (flags.json) console.log(JSON.stringify(results));
  else console.log(`\n${table}\n\n(${results.mode} run, ${results.durationSec} s; written to bench/results.json)`);
  // The table of record is a full run's, on every database.
  if (!quick && flags.database === undefined) writeTableOfRecord(results, table);
  return 0;
}

await runMain(main, import.meta.url);
