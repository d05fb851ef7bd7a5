// The processes of the benchmark: the servers it measures (started from the compiled build, as in
// production), the seeding and client runs, and the start-up measurement of `npm start`.
import { type ChildProcess, type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { collectOutput, waitForOutput } from '../../scripts/shared/child-process.js';
import { projectRoot as root } from '../../server/project-root.js';

export interface Started {
  child: ChildProcessWithoutNullStreams;
  port: number;
}

/** Asks a server of the benchmark (bench/servers/cpu-probe.ts) over IPC; resolves with its answer's `field`. */
export function askProbe<T>(started: Started, request: string, field: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = started.child as ChildProcess;
    const onMessage = (message: Record<string, unknown>) => {
      if (message[field] === undefined) return;
      child.off('message', onMessage);
      resolve(message[field] as T);
    };
    child.on('message', onMessage);
    if (!child.send(request)) reject(new Error('the server has no IPC channel'));
  });
}

/** The CPU time, user and system, that a server of the benchmark has used so far, in microseconds. */
export async function cpuMicros(started: Started): Promise<number> {
  const usage = await askProbe<NodeJS.CpuUsage>(started, 'cpu-usage', 'cpuUsage');
  return usage.user + usage.system;
}

/** The node flags of `npm start`, so that the server is measured exactly as it is run. */
function startScriptNodeFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const match = /^node((?: --\S+)*) scripts\/start\.mjs$/.exec(scripts.start ?? '');
  if (!match) throw new Error(`npm start is not "node [flags] scripts/start.mjs": ${scripts.start}`);
  return (match[1] ?? '').split(' ').filter(Boolean);
}
export const serverNodeFlags = startScriptNodeFlags();

/**
 * A server of the benchmark from the compiled build (`npm run build:server`, which `npm run bench`
 * runs first): no TypeScript loader in its start-up, memory or profile. Resolves once it prints its port.
 */
export async function startServer(
  script: string,
  args: string[],
  env: Record<string, string> = {},
  nodeFlags: string[] = [],
): Promise<Started> {
  // With an IPC channel, for cpuMicros.
  const child = spawn(process.execPath, [...nodeFlags, script, ...args], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['pipe', 'pipe', 'pipe', 'ipc'],
  }) as ChildProcessWithoutNullStreams;
  const output = await waitForOutput(child, /^\{"port":\d+\}$/m, 120_000);
  const line = output.split('\n').find((l) => l.startsWith('{"port"')) ?? '{}';
  return { child, port: Number((JSON.parse(line) as { port: number }).port) };
}

export function stopServer(started: Started): Promise<void> {
  return new Promise((resolve) => {
    started.child.removeAllListeners('close');
    started.child.on('close', () => resolve());
    started.child.kill('SIGTERM');
  });
}

/** Runs a script of the build to its end; resolves with its last line of output. */
export async function runToEnd(
  script: string,
  args: string[],
  env: Record<string, string>,
  nodeFlags: string[] = [],
): Promise<string> {
  const { code, stdout, stderr } = await collectOutput(
    spawn(process.execPath, [...nodeFlags, script, ...args], { cwd: root, env: { ...process.env, ...env } }),
  );
  if (code !== 0) throw new Error(`${script} exited with ${code}: ${stderr}`);
  return stdout.trim().split('\n').pop() ?? '';
}

export function rssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Milliseconds from spawning `npm start`'s entry on an empty database to its first 200. */
export async function measureStartup(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-start-'));
  const started = performance.now();
  // As in production: NODE_ENV=production (responses not validated) with its own SECRETS_KEY.
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    SECRETS_KEY: randomBytes(32).toString('base64'),
    DATABASE_URL: `sqlite:${join(dir, 'api.db')}`,
    PORT: '0',
    LOG_LEVEL: 'info',
  };
  const child = spawn(process.execPath, [...serverNodeFlags, 'dist/server/main.js'], { cwd: root, env });
  try {
    const output = await waitForOutput(child, /management key: \S+[\s\S]*"url":"[^"]+"/, 30_000);
    const url = /"url":"([^"]+)"/.exec(output)?.[1];
    const key = /management key: (\S+)/.exec(output)?.[1];
    for (let attempt = 0; attempt < 1000; attempt++) {
      const response = await fetch(`${url}/api/v1/presets/support-agent/versions`, {
        headers: { authorization: `Bearer ${key}` },
      });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no 200 from ${url}`);
  } finally {
    child.kill('SIGTERM');
  }
}

/** A database of its own on the PostgreSQL server of `adminUrl`, dropped afterwards. */
export async function postgresDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
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
