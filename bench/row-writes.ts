// npm run bench:row-writes: on PostgreSQL, how a PATCH should write its row, measured. The built
// server in production mode, optimistic (the default: read, write over the revision read, lock
// first only after a conflict) against lock-first (BEGIN; SELECT … FOR UPDATE; UPDATE; COMMIT for
// every write), on one hot row and spread over 50 rows, with one instance and with two instances
// loaded at once on the same database (where writers of different processes meet). Interleaved
// rounds; medians of req/s (all instances together), p99 and CPU time per request.
// Usage: BENCH_POSTGRES_URL=… npm run bench:row-writes -- [--rounds N] [--seconds N]
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { parseArgsOrMessage } from '../scripts/shared/cli-args.js';
import { runMain } from '../server/run-main.js';
import { writingPatchBody } from './shared/patch-bodies.js';
import {
  cpuMicros,
  postgresDatabase,
  runToEnd,
  type Started,
  serverNodeFlags,
  startServer,
  stopServer,
} from './shared/processes.js';
import { requestsOf } from './shared/scenarios.js';
import { median } from './shared/stats.js';

const USAGE = 'usage: BENCH_POSTGRES_URL=<server URL> npm run bench:row-writes -- [--rounds N] [--seconds N]';
const STRATEGIES = ['optimistic', 'lock-first'] as const;

interface Figures {
  rps: number;
  p99: number;
  cpuUs: number;
  errors: number;
}

/** One load, split across `servers` at once; req/s summed, p99 the worst, CPU per request over all. */
async function loadAll(servers: Started[], paths: string[], apiKey: string, seconds: number): Promise<Figures> {
  const cpuBefore = await Promise.all(servers.map(cpuMicros));
  const results = await Promise.all(
    servers.map((server) =>
      autocannon({
        url: `http://127.0.0.1:${server.port}`,
        connections: 10,
        duration: seconds,
        requests: requestsOf(
          { name: 'PATCH', method: 'PATCH', path: paths[0] ?? '', paths, body: writingPatchBody },
          apiKey,
        ),
      }),
    ),
  );
  const cpuAfter = await Promise.all(servers.map(cpuMicros));
  const cpuUs = cpuAfter.reduce((sum, after, i) => sum + after - (cpuBefore[i] ?? 0), 0);
  const total = results.reduce((sum, r) => sum + r.requests.total, 0);
  return {
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    cpuUs: cpuUs / Math.max(1, total),
    errors: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
  };
}

export async function main(argv: string[]): Promise<number> {
  const parsed = parseArgsOrMessage({
    args: argv,
    options: { rounds: { type: 'string', default: '5' }, seconds: { type: 'string', default: '5' } },
  });
  if (typeof parsed === 'string') {
    console.error(`bench:row-writes: ${parsed} (${USAGE})`);
    return 2;
  }
  const rounds = Number(parsed.values.rounds);
  const seconds = Number(parsed.values.seconds);
  const adminUrl = process.env.BENCH_POSTGRES_URL;
  if (!(Number.isInteger(rounds) && rounds > 0 && Number.isInteger(seconds) && seconds > 0) || !adminUrl) {
    console.error(
      `bench:row-writes: whole numbers above 0 for --rounds and --seconds, and BENCH_POSTGRES_URL set (${USAGE})`,
    );
    return 2;
  }
  const database = await postgresDatabase(adminUrl);
  const env = { BENCH_SECRETS_KEY: randomBytes(32).toString('hex') };
  const servers: Record<(typeof STRATEGIES)[number], Started[]> = { optimistic: [], 'lock-first': [] };
  try {
    const seeded = JSON.parse(await runToEnd('dist/bench/servers/seed.js', [database.url, '0'], env)) as Record<
      string,
      string
    >;
    for (const strategy of STRATEGIES)
      for (let instance = 0; instance < 2; instance++)
        servers[strategy].push(
          await startServer(
            'dist/bench/servers/subject.js',
            [database.url],
            { ...env, BENCH_ROW_WRITES: strategy },
            serverNodeFlags,
          ),
        );
    const destination = (id: string | undefined) => `/api/v1/observability/destinations/${id}`;
    const loads = [
      { name: 'hot row', paths: [destination(seeded.destinationId)] },
      { name: '50 rows', paths: (seeded.spreadDestinationIds ?? '').split(',').map(destination) },
    ];
    console.log(
      `| load | instances | strategy | req/s | p99 ms | CPU µs/request | errors |\n|---|---|---|---|---|---|---|`,
    );
    for (const { name, paths } of loads) {
      for (const instances of [1, 2]) {
        const samples = new Map(STRATEGIES.map((s) => [s, [] as Figures[]]));
        // Each once first, unmeasured, for the JIT; then interleaved, the order alternating.
        for (const strategy of STRATEGIES)
          await loadAll(servers[strategy].slice(0, instances), paths, seeded.managementKey ?? '', seconds);
        for (let round = 0; round < rounds; round++)
          for (const strategy of round % 2 === 0 ? STRATEGIES : [...STRATEGIES].reverse())
            samples
              .get(strategy)
              ?.push(await loadAll(servers[strategy].slice(0, instances), paths, seeded.managementKey ?? '', seconds));
        for (const strategy of STRATEGIES) {
          const runs = samples.get(strategy) ?? [];
          const of = (pick: (f: Figures) => number) => median(runs.map(pick));
          console.log(
            `| ${name} | ${instances} | ${strategy} | ${of((f) => f.rps).toFixed(0)} | ${of((f) => f.p99)} | ${of((f) => f.cpuUs).toFixed(0)} | ${runs.reduce((sum, f) => sum + f.errors, 0)} |`,
          );
        }
      }
    }
  } finally {
    await Promise.all(Object.values(servers).flat().map(stopServer));
    await database.drop();
  }
  return 0;
}

await runMain(main, import.meta.url);
