// A CPU profile of the server under load: the subject of the benchmark started with --cpu-prof on
// a seeded database (SQLite, or PostgreSQL with --database postgres and BENCH_POSTGRES_URL), one
// operation loaded for a while, then the samples summed by package
// and by function (self time). The .cpuprofile is kept for a closer look in a profile viewer.
// Usage: npm run bench:profile -- [getKey|updateObservabilityDestination|listPresetVersions] [--seconds N]
//        [--metrics]   (--metrics: with the Prometheus metrics on, as METRICS_PORT turns them on)
//        [--tracing]   (--tracing: with every request traced and exported over OTLP/HTTP to a local sink)
//        [--database sqlite|postgres]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { parseArgsOrMessage } from '../scripts/shared/cli-args.js';
import { runMain } from '../server/run-main.js';
import { databasesToRun } from './shared/databases.js';
import { startOtlpSink } from './shared/otlp-sink.js';
import { writingPatchBody } from './shared/patch-bodies.js';
import { runToEnd, serverNodeFlags, startServer, stopServer } from './shared/processes.js';
import { requestsOf } from './shared/scenarios.js';
import { onEachDatabase } from './subject-setup.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  /** µs since the sample before; the first one since startTime. */
  timeDeltas: number[];
  /** µs of the monotonic clock, the one of process.hrtime(). */
  startTime: number;
}
interface Sample {
  node: number;
  us: number;
}

const OPERATIONS = ['getKey', 'updateObservabilityDestination', 'listPresetVersions'];

function packageOf(url: string): string {
  if (url === '') return '(native, GC and idle)';
  if (url.startsWith('node:')) return 'node internals';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1] as string;
  const own = /dist\/(server\/[^/]+)/.exec(url);
  return own ? (own[1] as string) : url;
}

/** The samples taken between two readings of the monotonic clock (µs): the load, not the start. */
function samplesWithin(profile: CpuProfile, fromUs: number, toUs: number): Sample[] {
  const within: Sample[] = [];
  let at = profile.startTime;
  profile.samples.forEach((node, index) => {
    const us = profile.timeDeltas[index] ?? 0;
    at += us;
    if (at >= fromUs && at <= toUs) within.push({ node, us });
  });
  return within;
}

/**
 * The time of the samples whose innermost frame of a package or of the server (not Node's own,
 * not native) is in `code`: that code's own time, with the Node internals it calls, without what
 * it calls of other code (a middleware's next()).
 */
function ownTimeUs(profile: CpuProfile, samples: Sample[], code: RegExp): { us: number; samples: number } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const own = { us: 0, samples: 0 };
  for (const sample of samples) {
    let id: number | undefined = sample.node;
    let url = byId.get(id)?.callFrame.url ?? '';
    while (id !== undefined && (url === '' || url.startsWith('node:'))) {
      id = parentOf.get(id);
      url = (id === undefined ? undefined : byId.get(id)?.callFrame.url) ?? '';
    }
    if (id !== undefined && code.test(url)) {
      own.us += sample.us;
      own.samples += 1;
    }
  }
  return own;
}

function summary(profile: CpuProfile, samples: Sample[]): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const { node } of samples) {
    const frame = byId.get(node)?.callFrame;
    if (!frame) continue;
    const pkg = packageOf(frame.url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + 1);
    const name = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/')}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + 1);
  }
  const total = samples.length;
  const top = (counts: Map<string, number>, n: number) =>
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, count]) => `${((100 * count) / total).toFixed(1).padStart(5)} %  ${name}`)
      .join('\n');
  return `${total} samples during the load\n\nby package (self time):\n${top(byPackage, 20)}\n\nby function (self time):\n${top(byFunction, 30)}`;
}

export async function main(argv: string[]): Promise<number> {
  const parsed = parseArgsOrMessage({
    args: argv,
    allowPositionals: true,
    options: {
      seconds: { type: 'string', default: '10' },
      metrics: { type: 'boolean' },
      tracing: { type: 'boolean' },
      database: { type: 'string' },
    },
  });
  if (typeof parsed === 'string') {
    console.error(parsed);
    return 2;
  }
  const operation = parsed.positionals[0] ?? 'getKey';
  if (!OPERATIONS.includes(operation)) {
    console.error(`Unknown operation ${operation}: one of ${OPERATIONS.join(', ')}.`);
    return 2;
  }
  const databases = databasesToRun(parsed.values.database ?? 'sqlite', process.env.BENCH_POSTGRES_URL);
  if (typeof databases === 'string') {
    console.error(databases);
    return 2;
  }
  const [code] = await onEachDatabase(databases, (_label, databaseUrl) =>
    profileUnderLoad(
      databaseUrl,
      operation,
      Number(parsed.values.seconds),
      parsed.values.metrics === true,
      parsed.values.tracing === true,
    ),
  );
  return code ?? 1;
}

/** Loads `operation` on a profiled server for `seconds`, then prints where its CPU time went. */
async function profileUnderLoad(
  databaseUrl: string,
  operation: string,
  seconds: number,
  metrics: boolean,
  tracing: boolean,
): Promise<number> {
  const secretsKey = randomBytes(32).toString('hex');
  const seeded = JSON.parse(
    await runToEnd('dist/bench/servers/seed.js', [databaseUrl, '1000'], { BENCH_SECRETS_KEY: secretsKey }),
  ) as Record<string, string>;
  const profileDir = mkdtempSync(join(tmpdir(), 'bench-cpuprofile-'));
  const collector = tracing ? await startOtlpSink() : undefined;
  const env = {
    BENCH_SECRETS_KEY: secretsKey,
    ...(metrics && { BENCH_METRICS: '1' }),
    ...(collector && {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_TRACES_SAMPLER: 'always_on',
    }),
  };
  const subject = await startServer('dist/bench/servers/subject.js', [databaseUrl], env, [
    ...serverNodeFlags,
    '--cpu-prof',
    `--cpu-prof-dir=${profileDir}`,
  ]);
  const request =
    operation === 'getKey'
      ? [{ method: 'GET' as const, path: `/api/v1/keys/${seeded.idleKeyHash}` }]
      : operation === 'listPresetVersions'
        ? [{ method: 'GET' as const, path: '/api/v1/presets/small/versions?limit=50' }]
        : requestsOf(
            {
              name: 'PATCH',
              method: 'PATCH',
              path: `/api/v1/observability/destinations/${seeded.destinationId}`,
              body: writingPatchBody,
            },
            seeded.managementKey ?? '',
          );
  const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
  const loadStartedUs = monotonicUs();
  const result = await autocannon({
    url: `http://127.0.0.1:${subject.port}`,
    connections: 10,
    duration: seconds,
    headers: { authorization: `Bearer ${seeded.managementKey}`, 'content-type': 'application/json' },
    requests: request,
  });
  const loadEndedUs = monotonicUs();
  await stopServer(subject);
  await collector?.close();
  const [file] = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error('the server wrote no profile');
  const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile;
  const samples = samplesWithin(profile, loadStartedUs, loadEndedUs);
  if (samples.length === 0) {
    console.error("No sample of the profile falls within the load: the profile's clock is not this process's.");
    return 1;
  }
  const requests = result.requests.total;
  console.log(
    `${operation}, ${seconds} s under load, ${requests.toLocaleString('en')} requests; profile: ${join(profileDir, file)}\n`,
  );
  console.log(summary(profile, samples));
  if (metrics) {
    const own = ownTimeUs(profile, samples, /\/server\/http\/metrics\.js$|\/node_modules\/prom-client\//);
    // A count of samples is known to about its square root.
    const spread = own.us / Math.sqrt(Math.max(1, own.samples));
    console.log(
      `\nthe metrics' own time (server/metrics/metrics.js and prom-client, with the Node internals they call): ${(own.us / requests).toFixed(2)} ± ${(spread / requests).toFixed(2)} µs per request (${own.samples} of the load's ${samples.length} samples, ${((100 * own.samples) / samples.length).toFixed(2)} %)`,
    );
  }
  return 0;
}

await runMain(main, import.meta.url);
