// A CPU profile of the server under load: the subject of the benchmark started with --cpu-prof on
// a seeded SQLite database, one operation loaded for a while, then the samples summed by package
// and by function (self time). The .cpuprofile is kept for a closer look in a profile viewer.
// Usage: npm run bench:profile -- [getKey|updateObservabilityDestination|listPresetVersions] [--seconds N]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { runToEnd, serverNodeFlags, startServer, stopServer } from './processes.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
}

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: { seconds: { type: 'string', default: '10' } },
});
const operation = positionals[0] ?? 'getKey';
const operations = ['getKey', 'updateObservabilityDestination', 'listPresetVersions'];
if (!operations.includes(operation)) {
  console.error(`Unknown operation ${operation}: one of ${operations.join(', ')}.`);
  process.exit(2);
}

function packageOf(url: string): string {
  if (url === '') return '(native, GC and idle)';
  if (url.startsWith('node:')) return 'node internals';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1] as string;
  const own = /dist\/(server\/[^/]+)/.exec(url);
  return own ? (own[1] as string) : url;
}

function summary(profile: CpuProfile): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const id of profile.samples) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const pkg = packageOf(frame.url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + 1);
    const name = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/')}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + 1);
  }
  const total = profile.samples.length;
  const top = (counts: Map<string, number>, n: number) =>
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, count]) => `${((100 * count) / total).toFixed(1).padStart(5)} %  ${name}`)
      .join('\n');
  return `${total} samples\n\nby package (self time):\n${top(byPackage, 20)}\n\nby function (self time):\n${top(byFunction, 30)}`;
}

const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'bench-profile-')), 'api.db')}`;
const secretsKey = randomBytes(32).toString('hex');
const seeded = JSON.parse(
  await runToEnd('dist/bench/servers/seed.js', [databaseUrl, '1000'], { BENCH_SECRETS_KEY: secretsKey }),
) as Record<string, string>;
const profileDir = mkdtempSync(join(tmpdir(), 'bench-cpuprofile-'));
const subject = await startServer('dist/bench/servers/subject.js', [databaseUrl], { BENCH_SECRETS_KEY: secretsKey }, [
  ...serverNodeFlags,
  '--cpu-prof',
  `--cpu-prof-dir=${profileDir}`,
]);
const request =
  operation === 'getKey'
    ? [{ method: 'GET' as const, path: `/api/v1/keys/${seeded.idleKeyHash}` }]
    : operation === 'listPresetVersions'
      ? [{ method: 'GET' as const, path: '/api/v1/presets/small/versions?limit=50' }]
      : ['{"sampling_rate":0.5}', '{"sampling_rate":0.25}'].map((body) => ({
          method: 'PATCH' as const,
          path: `/api/v1/observability/destinations/${seeded.destinationId}`,
          body,
        }));
await autocannon({
  url: `http://127.0.0.1:${subject.port}`,
  connections: 10,
  duration: Number(options.seconds),
  headers: { authorization: `Bearer ${seeded.managementKey}`, 'content-type': 'application/json' },
  requests: request,
});
await stopServer(subject);
const [file] = readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
if (!file) throw new Error('the server wrote no profile');
console.log(`${operation}, ${options.seconds} s under load; profile: ${join(profileDir, file)}\n`);
console.log(summary(JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as CpuProfile));
