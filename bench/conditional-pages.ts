// npm run bench:conditional-pages: what a 304 costs beside a 200 for a page of preset versions, on
// the built server in production mode (the benchmark's subject) on a seeded SQLite database. The
// same page, asked with and without the If-None-Match that holds its ETag, in interleaved rounds
// of a fixed number of requests; medians of the server's CPU time per request.
// Usage: npm run bench:conditional-pages -- [--rounds N] [--requests N]
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgsOrMessage } from '../scripts/shared/cli-args.js';
import { runMain } from '../server/run-main.js';
import { load } from './load-driver.js';
import { runToEnd, serverNodeFlags, startServer, stopServer } from './shared/processes.js';
import type { Scenario } from './shared/scenarios.js';
import { median } from './shared/stats.js';

const USAGE = 'usage: npm run bench:conditional-pages -- [--rounds N] [--requests N]';

export async function main(argv: string[]): Promise<number> {
  const parsed = parseArgsOrMessage({
    args: argv,
    options: { rounds: { type: 'string', default: '8' }, requests: { type: 'string', default: '4000' } },
  });
  if (typeof parsed === 'string') {
    console.error(`bench:conditional-pages: ${parsed} (${USAGE})`);
    return 2;
  }
  const rounds = Number(parsed.values.rounds);
  const requests = Number(parsed.values.requests);
  if (!(rounds > 0 && requests > 0)) {
    console.error(`bench:conditional-pages: --rounds and --requests take positive numbers (${USAGE})`);
    return 2;
  }
  const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'bench-conditional-')), 'api.db')}`;
  const env = { BENCH_SECRETS_KEY: randomBytes(32).toString('hex') };
  const seeded = JSON.parse(await runToEnd('dist/bench/servers/seed.js', [databaseUrl, '0'], env)) as {
    managementKey: string;
  };
  const server = await startServer('dist/bench/servers/subject.js', [databaseUrl], env, serverNodeFlags);
  try {
    const path = '/api/v1/presets/small/versions?limit=50';
    const first = await fetch(`http://127.0.0.1:${server.port}${path}`, {
      headers: { authorization: `Bearer ${seeded.managementKey}` },
    });
    const etag = first.headers.get('etag') ?? '';
    const scenarios: Scenario[] = [
      { name: '200: the page of 50', method: 'GET', path },
      { name: '304: If-None-Match with its ETag', method: 'GET', path, headers: { 'if-none-match': etag } },
    ];
    const settings = { rounds, durationSec: 0, connections: 10, latencySamples: 0, ladderRequests: requests };
    const cpu = new Map(scenarios.map((scenario) => [scenario.name, [] as number[]]));
    // Each once first, unmeasured, for the JIT.
    for (const scenario of scenarios) await load(settings, server, scenario, seeded.managementKey, requests);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? scenarios : [...scenarios].reverse();
      for (const scenario of order) {
        const result = await load(settings, server, scenario, seeded.managementKey, requests);
        if (result.errors > 0) throw new Error(`${scenario.name}: ${result.errors} failed requests`);
        cpu.get(scenario.name)?.push(result.cpuUs);
      }
    }
    const [ok = Number.NaN, notModified = Number.NaN] = scenarios.map((s) => median(cpu.get(s.name) ?? []));
    console.log(`| answer | server CPU µs per request (median of ${rounds} rounds of ${requests}) |\n|---|---|`);
    for (const scenario of scenarios)
      console.log(`| ${scenario.name} | ${median(cpu.get(scenario.name) ?? []).toFixed(0)} |`);
    console.log(`| ratio, 304 / 200 | ${(notModified / ok).toFixed(2)} |`);
  } finally {
    await stopServer(server);
  }
  return 0;
}

await runMain(main, import.meta.url);
