// The benchmark: throughput and p99 of this server against three baselines measured in the same
// run (a raw node:http server, a bare Express 5 app returning the same bodies, and that app behind
// express-openapi-validator, the floor the required stack sets), interleaved
// in rounds, medians reported as ratios; flat cost as data grows; memory; start-up; client
// overhead. Load stays on loopback, bounded in time and connections.
// Usage: npm run bench [-- --quick] [-- --json]     BENCH_POSTGRES_URL adds a PostgreSQL subject.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { projectRoot } from '../server/project-root.js';
import type { ClientOverhead } from './client-overhead.js';
import { median } from './stats.js';

const { values: flags } = parseArgs({ options: { quick: { type: 'boolean' }, json: { type: 'boolean' } } });
const quick = flags.quick === true;
const root = projectRoot;
const settings = quick
  ? { rounds: 3, durationSec: 1, connections: 8, bigCount: 100_000, latencySamples: 150 }
  : { rounds: 3, durationSec: 6, connections: 10, bigCount: 1_000_000, latencySamples: 500 };
const log = (message: string) => {
  if (!flags.json) process.stderr.write(`${message}\n`);
};

interface Started {
  child: ChildProcessWithoutNullStreams;
  info: Record<string, string | number>;
}

// The node flags of `npm start`, so that the server is measured exactly as it is run.
function startScriptNodeFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const match = /^node((?: --\S+)*) dist\/server\/main\.js$/.exec(scripts.start ?? '');
  if (!match) throw new Error(`npm start is not "node [flags] dist/server/main.js": ${scripts.start}`);
  return (match[1] ?? '').split(' ').filter(Boolean);
}
const serverNodeFlags = startScriptNodeFlags();

// Servers run from the compiled build (`npm run build:server`, which `npm run bench` runs first),
// as in production: no TypeScript loader in their start-up, memory or profile.
function startProcess(script: string, args: string[], env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<Started> {
  const child = spawn(process.execPath, [...nodeFlags, script, ...args], { cwd: root, env: { ...process.env, NODE_ENV: 'production', ...env } });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('{"port"'));
      if (line) resolve({ child, info: JSON.parse(line) as Record<string, string | number> });
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}: ${output}`)));
  });
}

/** Runs a script to its end; resolves with its last line of output. */
function runToEnd(script: string, args: string[], env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [script, ...args], { cwd: root, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => (code === 0 ? resolve(stdout.trim().split('\n').pop() ?? '') : reject(new Error(`${script} exited with ${code}: ${stderr}`)))),
  );
}

function stop(started: Started): Promise<void> {
  return new Promise((resolve) => {
    started.child.removeAllListeners('exit');
    started.child.on('exit', () => resolve());
    started.child.kill('SIGTERM');
  });
}

function rssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

interface Scenario {
  name: string;
  method: 'GET' | 'PATCH';
  path: string;
  /** Bodies sent in turn (a PATCH alternates, so that every request really writes). */
  bodies?: string[];
}

async function load(port: number, scenario: Scenario, apiKey: string): Promise<{ rps: number; p99: number; errors: number }> {
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const requests = (scenario.bodies ?? [undefined]).map((body) => ({ method: scenario.method, path: scenario.path, headers, ...(body && { body }) }));
  const result = await autocannon({ url: `http://127.0.0.1:${port}`, connections: settings.connections, duration: settings.durationSec, requests });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.non2xx + result.errors };
}

async function sequentialLatencyMs(port: number, path: string, apiKey: string): Promise<number> {
  const timings: number[] = [];
  for (let i = 0; i < settings.latencySamples; i++) {
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    timings.push(performance.now() - started);
  }
  return median(timings);
}

async function captureBodies(port: number, scenarios: Scenario[], apiKey: string): Promise<Record<string, string>> {
  const bodies: Record<string, string> = {};
  for (const scenario of scenarios) {
    const response = await fetch(`http://127.0.0.1:${port}${scenario.path}`, {
      method: scenario.method,
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      ...(scenario.bodies && { body: scenario.bodies[0] }),
    });
    if (response.status !== 200) throw new Error(`${scenario.name} answered ${response.status}`);
    bodies[`${scenario.method} ${scenario.path}`] = await response.text();
  }
  return bodies;
}

async function measureStartup(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-start-'));
  const started = performance.now();
  // As in production: NODE_ENV=production (responses not validated) with its own SECRETS_KEY.
  const env = { ...process.env, NODE_ENV: 'production', SECRETS_KEY: randomBytes(32).toString('base64'), DATABASE_URL: `sqlite:${join(dir, 'api.db')}`, PORT: '0', LOG_LEVEL: 'info' };
  const child = spawn(process.execPath, [...serverNodeFlags, 'dist/server/main.js'], { cwd: root, env });
  let output = '';
  try {
    const { url, key } = await new Promise<{ url: string; key: string }>((resolve, reject) => {
      child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const url = /"url":"([^"]+)"/.exec(output)?.[1];
        const key = /management key: (\S+)/.exec(output)?.[1];
        if (url && key) resolve({ url, key });
      });
    });
    for (let attempt = 0; attempt < 1000; attempt++) {
      const response = await fetch(`${url}/api/v1/presets/support-agent/versions`, { headers: { authorization: `Bearer ${key}` } });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no 200 from ${url}`);
  } finally {
    child.removeAllListeners('exit');
    child.kill('SIGTERM');
  }
}

interface SubjectReport {
  database: string;
  throughput: { scenario: string; rawRps: number; expressRps: number; floorRps: number; subjectRps: number; ratioToExpress: number; ratioToFloor: number; p99Ms: number; expressP99Ms: number; p99Ratio: number; target: number; errors: number }[];
  flatCost: { measure: string; smallMs: number; largeMs: number; ratio: number; target: number }[];
  rssMb: number;
}

async function benchSubject(label: string, databaseUrl: string): Promise<SubjectReport> {
  log(`[${label}] seeding (${settings.bigCount.toLocaleString('en')} versions and usage records)...`);
  const secretsKey = randomBytes(32).toString('hex');
  const { managementKey, idleKeyHash, busyKeyHash, destinationId } = JSON.parse(
    await runToEnd('dist/bench/servers/seed.js', [databaseUrl, String(settings.bigCount)], { BENCH_SECRETS_KEY: secretsKey }),
  ) as { managementKey: string; idleKeyHash: string; busyKeyHash: string; destinationId: string };
  const subject = await startProcess('dist/bench/servers/subject.js', [databaseUrl], { BENCH_SECRETS_KEY: secretsKey }, serverNodeFlags);
  const port = Number(subject.info.port);
  const scenarios: (Scenario & { target: number })[] = [
    { name: 'getKey', method: 'GET', path: `/api/v1/keys/${idleKeyHash}`, target: 0.8 },
    { name: 'updateObservabilityDestination', method: 'PATCH', path: `/api/v1/observability/destinations/${destinationId}`, bodies: ['{"sampling_rate":0.5}', '{"sampling_rate":0.25}'], target: 0.5 },
    { name: 'listPresetVersions limit=50', method: 'GET', path: '/api/v1/presets/small/versions?limit=50', target: 0.6 },
    { name: 'listPresetVersions limit=100', method: 'GET', path: '/api/v1/presets/small/versions?limit=100', target: 0.6 },
  ];
  const bodiesFile = join(mkdtempSync(join(tmpdir(), 'bench-bodies-')), 'bodies.json');
  writeFileSync(bodiesFile, JSON.stringify(await captureBodies(port, scenarios, managementKey)));
  const raw = await startProcess('dist/bench/servers/baseline-http.js', [bodiesFile]);
  const bare = await startProcess('dist/bench/servers/baseline-express.js', [bodiesFile]);
  const floor = await startProcess('dist/bench/servers/baseline-validator.js', [bodiesFile]);

  const throughput: SubjectReport['throughput'] = [];
  for (const scenario of scenarios) {
    const samples = { raw: [] as number[], bare: [] as number[], floor: [] as number[], subject: [] as number[], ratio: [] as number[], floorRatio: [] as number[], p99: [] as number[], bareP99: [] as number[], p99Ratio: [] as number[], errors: 0 };
    for (let round = 0; round < settings.rounds; round++) {
      // Interleaved, in a rotating order, so that drift of the machine hits all four alike.
      const order = [
        ['raw', raw.info.port],
        ['bare', bare.info.port],
        ['floor', floor.info.port],
        ['subject', port],
      ] as const;
      const rotated = [...order.slice(round % order.length), ...order.slice(0, round % order.length)];
      const results: Record<string, { rps: number; p99: number; errors: number }> = {};
      for (const [name, targetPort] of rotated) results[name] = await load(Number(targetPort), scenario, managementKey);
      const [r, b, f, s] = [results.raw, results.bare, results.floor, results.subject] as { rps: number; p99: number; errors: number }[];
      samples.raw.push(r?.rps ?? 0);
      samples.bare.push(b?.rps ?? 0);
      samples.floor.push(f?.rps ?? 0);
      samples.floorRatio.push((s?.rps ?? 0) / (f?.rps ?? 1));
      samples.subject.push(s?.rps ?? 0);
      samples.ratio.push((s?.rps ?? 0) / (b?.rps ?? 1));
      samples.p99.push(s?.p99 ?? 0);
      samples.bareP99.push(b?.p99 ?? 0);
      samples.p99Ratio.push((s?.p99 ?? 0) / Math.max(1, b?.p99 ?? 1));
      samples.errors += (s?.errors ?? 0) + (r?.errors ?? 0) + (b?.errors ?? 0) + (f?.errors ?? 0);
    }
    throughput.push({
      scenario: scenario.name,
      rawRps: median(samples.raw),
      expressRps: median(samples.bare),
      floorRps: median(samples.floor),
      subjectRps: median(samples.subject),
      ratioToExpress: median(samples.ratio),
      ratioToFloor: median(samples.floorRatio),
      p99Ms: median(samples.p99),
      expressP99Ms: median(samples.bareP99),
      p99Ratio: median(samples.p99Ratio),
      target: scenario.target,
      errors: samples.errors,
    });
    log(`[${label}] ${scenario.name}: ${median(samples.ratio).toFixed(2)}x bare Express`);
  }

  const flatCost: SubjectReport['flatCost'] = [];
  const pages: [string, string, string][] = [
    ['page at offset 0', '/api/v1/presets/small/versions?offset=0&limit=100', '/api/v1/presets/huge/versions?offset=0&limit=100'],
    [`page at offset ${settings.bigCount - 100}`, '/api/v1/presets/small/versions?offset=0&limit=100', `/api/v1/presets/huge/versions?offset=${settings.bigCount - 100}&limit=100`],
    ['getKey', `/api/v1/keys/${idleKeyHash}`, `/api/v1/keys/${busyKeyHash}`],
  ];
  for (const [measure, smallPath, largePath] of pages) {
    const small: number[] = [];
    const large: number[] = [];
    for (let round = 0; round < settings.rounds; round++) {
      small.push(await sequentialLatencyMs(port, smallPath, managementKey));
      large.push(await sequentialLatencyMs(port, largePath, managementKey));
    }
    const ratio = median(large) / median(small);
    flatCost.push({ measure, smallMs: median(small), largeMs: median(large), ratio, target: measure === 'getKey' ? 1.2 : 2 });
    log(`[${label}] flat cost, ${measure}: ${ratio.toFixed(2)}x`);
  }
  const report = { database: label, throughput, flatCost, rssMb: rssMb(subject.child.pid) };
  await Promise.all([stop(subject), stop(raw), stop(bare), stop(floor)]);
  return report;
}

async function postgresDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `api_bench_${process.pid}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(query);
    await client.end();
  };
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

const startedAt = Date.now();
const subjects: SubjectReport[] = [await benchSubject('sqlite', `sqlite:${join(mkdtempSync(join(tmpdir(), 'bench-db-')), 'api.db')}`)];
if (process.env.BENCH_POSTGRES_URL) {
  const database = await postgresDatabase(process.env.BENCH_POSTGRES_URL);
  try {
    subjects.push(await benchSubject('postgres', database.url));
  } finally {
    await database.drop();
  }
}
log('start-up and client overhead...');
const startupMs = median([await measureStartup(), await measureStartup(), await measureStartup()]);
// In processes of their own, so that the harness's heap stays out of the timings; three of them,
// because one process's figure drifts with its own JIT and GC (1.01x to 1.16x seen here).
const clientRuns: ClientOverhead[] = [];
for (let run = 0; run < 3; run++) {
  const args = ['--json', '--calls', String(quick ? 300 : 2000), '--rounds', String(quick ? 3 : 7)];
  clientRuns.push(JSON.parse(await runToEnd('dist/bench/client-overhead.js', args, {})) as ClientOverhead);
}
const client = { ...clientRuns.toSorted((a, b) => a.medianRatio - b.medianRatio)[1], processes: clientRuns.map((r) => r.medianRatio) } as ClientOverhead & { processes: number[] };

const results = {
  date: new Date().toISOString(),
  mode: quick ? 'quick' : 'full',
  machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version },
  settings,
  subjects,
  startup: { firstOkMs: startupMs, target: 1500 },
  client: { ...client, target: 1.1 },
  durationSec: Math.round((Date.now() - startedAt) / 1000),
};
writeFileSync(join(root, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);

const pass = (ok: boolean) => (ok ? 'yes' : '**no**');
const lines: string[] = [];
for (const subject of subjects) {
  lines.push(`### ${subject.database}`, '', '| operation | raw node:http req/s | bare Express req/s | Express + validator req/s | this server req/s | ratio to Express | target | ratio to Express + validator | p99 ms (Express) | p99 ratio (target <= 2) | met |', '|---|---|---|---|---|---|---|---|---|---|---|');
  for (const t of subject.throughput) {
    lines.push(
      `| ${t.scenario} | ${Math.round(t.rawRps)} | ${Math.round(t.expressRps)} | ${Math.round(t.floorRps)} | ${Math.round(t.subjectRps)} | ${t.ratioToExpress.toFixed(2)} | >= ${t.target} | ${t.ratioToFloor.toFixed(2)} | ${t.p99Ms} (${t.expressP99Ms}) | ${t.p99Ratio.toFixed(2)} | ${pass(t.ratioToExpress >= t.target && t.p99Ratio <= 2 && t.errors === 0)} |`,
    );
  }
  lines.push('', `| flat cost (${settings.bigCount.toLocaleString('en')} rows vs small) | small ms | large ms | ratio | target | met |`, '|---|---|---|---|---|---|');
  for (const f of subject.flatCost) lines.push(`| ${f.measure} | ${f.smallMs.toFixed(3)} | ${f.largeMs.toFixed(3)} | ${f.ratio.toFixed(2)} | <= ${f.target} | ${pass(f.ratio <= f.target)} |`);
  lines.push('', `Server RSS after the run: ${subject.rssMb.toFixed(0)} MB (target <= 150): ${pass(subject.rssMb <= 150)}`, '');
}
lines.push(`Start-up, process start to first 200: ${startupMs.toFixed(0)} ms (target <= 1500): ${pass(startupMs <= 1500)}`);
lines.push(`Client getKey per call vs raw fetch: ${client.medianRatio.toFixed(3)}x, the median of three processes (${client.processes.map((r) => r.toFixed(3)).join(', ')}) (target <= 1.1): ${pass(client.medianRatio <= 1.1)}`);
const table = lines.join('\n');

if (flags.json) console.log(JSON.stringify(results));
else console.log(`\n${table}\n\n(${results.mode} run, ${results.durationSec} s; written to bench/results.json)`);
if (!quick) {
  const machine = `${results.machine.cpus} cores (${results.machine.cpuModel}), ${results.machine.memoryGb} GB, Node ${results.machine.node}`;
  const markdown = readFileSync(join(root, 'BENCHMARKS.md'), 'utf8').replace(
    /<!-- results -->[\s\S]*<!-- \/results -->/,
    `<!-- results -->\nLatest full run: ${results.date}, on ${machine}; ${settings.rounds} interleaved rounds of ${settings.durationSec} s, ${settings.connections} connections, medians.\n\n${table}\n<!-- /results -->`,
  );
  writeFileSync(join(root, 'BENCHMARKS.md'), markdown);
}
