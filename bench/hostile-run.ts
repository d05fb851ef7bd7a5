// npm run bench -- --hostile (or npm run bench:hostile): every input a client controls flooded
// (bench/shared/hostile.ts), each against a plain request of the same operation, on the build in
// production mode; then requests past the failed-authentication limit. Written to
// bench/hostile.json.
// Usage: npm run bench:hostile [-- --quick] [-- --json]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgsOrMessage } from '../scripts/shared/cli-args.js';
import { projectRoot } from '../server/project-root.js';
import { runMain } from '../server/run-main.js';
import { BUILD_SCRIPTS, type HostileRow, hostileTable, runHostile, runPastAuthFailureLimit } from './shared/hostile.js';
import { serverNodeFlags } from './shared/processes.js';
import { progressLog } from './subject-setup.js';

export async function main(argv: string[]): Promise<number> {
  const parsed = parseArgsOrMessage({ args: argv, options: { quick: { type: 'boolean' }, json: { type: 'boolean' } } });
  if (typeof parsed === 'string') {
    console.error(parsed);
    return 2;
  }
  const { quick, json } = parsed.values;
  const startedAt = Date.now();
  const load = { count: quick ? 300 : 1200, concurrency: 4 };
  // A row over the target is measured twice more, between plain loads of its own (measureGroup).
  const options = {
    scripts: BUILD_SCRIPTS(serverNodeFlags),
    load,
    log: progressLog(json === true),
    suspect: (row: HostileRow) => row.cpuRatio >= 1.5,
  };
  const rows = [...(await runHostile(options)), ...(await runPastAuthFailureLimit(options))];
  const run = { date: new Date().toISOString(), mode: quick ? 'quick' : 'full', load, rows };
  writeFileSync(join(projectRoot, 'bench', 'hostile.json'), `${JSON.stringify(run, null, 2)}\n`);
  if (json) console.log(JSON.stringify(run));
  else
    console.log(
      `\n${hostileTable(rows, load.count)}\n\n(${run.mode} run, ${Math.round((Date.now() - startedAt) / 1000)} s; written to bench/hostile.json)`,
    );
  return 0;
}

await runMain(main, import.meta.url);
