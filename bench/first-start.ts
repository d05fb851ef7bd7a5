// A new user's first starts, timed: `npm start` in a copy of this checkout as a fresh clone has it
// (scripts/shared/checkout-copy.ts), from the spawn to the first 200 of /readyz. Three
// starts: a fresh clone (no build, no docs, no database), nothing changed since, and one server
// source touched. Each is repeated, fresh copies included; the medians are reported.
// Usage: npm run bench:first-start [-- --repeat n]
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { copyOfCheckout } from '../scripts/shared/checkout-copy.js';
import { waitForOutput } from '../scripts/shared/child-process.js';
import { parseArgsOrMessage } from '../scripts/shared/cli-args.js';
import { runMain } from '../server/run-main.js';
import { median } from './shared/stats.js';

const TARGETS_MS = { fresh: 8000, unchanged: 2000 } as const;

async function firstOk(url: string): Promise<void> {
  for (;;) {
    const status = await fetch(`${url}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Milliseconds from spawning `npm start` in `dir` to the first 200 of /readyz. */
async function timeStart(dir: string): Promise<number> {
  const started = performance.now();
  // Its own process group: npm does not pass signals on to the server (README).
  const child = spawn('npm', ['start'], {
    cwd: dir,
    detached: true,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', SHUTDOWN_DELAY_MS: '0' },
  }) as ChildProcessWithoutNullStreams;
  try {
    const output = await waitForOutput(child, /"msg":"listening"[^\n]*\n/, 60_000);
    const url = /"url":"([^"]+)"/.exec(output)?.[1];
    if (!url) throw new Error(`no url in: ${output}`);
    await firstOk(url);
    return performance.now() - started;
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.on('close', resolve));
      process.kill(-(child.pid as number), 'SIGINT');
      await exited;
    }
  }
}

/** A row of the table: the median of the runs, each run, and the target when there is one. */
function row(name: string, values: number[], target?: number): string {
  const met = target === undefined ? '-' : median(values) <= target ? 'yes' : 'no';
  return `| ${name} | ${Math.round(median(values))} | ${values.map(Math.round).join(', ')} | ${target ?? '-'} | ${met} |`;
}

export async function main(argv: string[]): Promise<number> {
  const parsed = parseArgsOrMessage({ args: argv, options: { repeat: { type: 'string', default: '3' } } });
  if (typeof parsed === 'string') {
    console.error(parsed);
    return 2;
  }
  const repeat = Number(parsed.values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1) {
    console.error(`--repeat takes a whole number of runs, at least 1 (got ${parsed.values.repeat})`);
    return 2;
  }
  const runs: Record<'fresh' | 'unchanged' | 'sourceTouched', number[]> = {
    fresh: [],
    unchanged: [],
    sourceTouched: [],
  };
  for (let run = 0; run < repeat; run++) {
    const copy = copyOfCheckout();
    const { dir } = copy;
    try {
      runs.fresh.push(await timeStart(dir));
      runs.unchanged.push(await timeStart(dir));
      const now = new Date();
      utimesSync(join(dir, 'server', 'app.ts'), now, now);
      runs.sourceTouched.push(await timeStart(dir));
    } finally {
      copy.remove();
    }
  }

  console.log(
    [
      '| `npm start` | median ms to the first 200 | each run | target | met |',
      '|---|---|---|---|---|',
      row('fresh clone (builds the server and the docs, creates and seeds the database)', runs.fresh, TARGETS_MS.fresh),
      row('nothing changed since', runs.unchanged, TARGETS_MS.unchanged),
      row('one server source touched', runs.sourceTouched),
    ].join('\n'),
  );
  return 0;
}

await runMain(main, import.meta.url);
