// npm run bench:amplification [-- --json]: every body of bench/shared/amplification-vectors.ts
// sent to the built server in production mode, with a key and without, beside the plain body of
// the same size, then the latency of plain requests while the costliest body is sent two at a
// time; the table for BENCHMARKS.md ("Amplification"), written to bench/amplification.json too.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgsOrMessage } from '../scripts/shared/cli-args.js';
import { projectRoot } from '../server/project-root.js';
import { runMain } from '../server/run-main.js';
import { amplificationTable, costliestBeside, latencyMeanwhile, measureAmplification } from './shared/amplification.js';
import { BUILD_SCRIPTS, seededServer } from './shared/hostile.js';
import { serverNodeFlags, stopServer } from './shared/processes.js';

export async function main(argv: string[]): Promise<number> {
  const parsed = parseArgsOrMessage({ args: argv, options: { json: { type: 'boolean' } } });
  if (typeof parsed === 'string') {
    console.error(`bench:amplification: ${parsed} (usage: npm run bench:amplification [-- --json])`);
    return 2;
  }
  const startedAt = Date.now();
  const { server, target } = await seededServer(BUILD_SCRIPTS(serverNodeFlags));
  try {
    const rows = await measureAmplification(server, target, { count: 10, concurrency: 1 }, 3);
    const { shape, plain, hostile } = costliestBeside(rows, target);
    const latency = await latencyMeanwhile(server, plain, hostile, { count: 200, concurrency: 2 });
    const run = { date: new Date().toISOString(), rows, latency: { ...latency, while: shape } };
    writeFileSync(join(projectRoot, 'bench', 'amplification.json'), `${JSON.stringify(run, null, 2)}\n`);
    if (parsed.values.json) console.log(JSON.stringify(run));
    else
      console.log(
        `\n${amplificationTable(rows)}\n\nA plain getKey while "${shape}" is sent 200 times, two at a time: ` +
          `${latency.plainRequests} requests, median ${latency.medianMs.toFixed(1)} ms, slowest ${latency.maxMs.toFixed(1)} ms.\n` +
          `(${Math.round((Date.now() - startedAt) / 1000)} s; written to bench/amplification.json)`,
      );
    return 0;
  } finally {
    await stopServer(server);
  }
}

await runMain(main, import.meta.url);
