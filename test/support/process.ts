// Runs the project's entry points as real processes: TypeScript sources through tsx, or the
// compiled build (a .js entry under dist/) with plain node, as `npm start` runs it.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { collectOutput, type Finished, waitForOutput } from '../../scripts/shared/child-process.js';
import { projectRoot } from '../../server/project-root.js';

export { type Finished, projectRoot, waitForOutput };

export function spawnEntry(entry: string, args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  return spawn(process.execPath, [...loader, entry, ...args], {
    cwd: projectRoot,
    // No drain delay on SIGTERM unless a test asks for one: no balancer waits for these servers.
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', SHUTDOWN_DELAY_MS: '0', ...env },
  });
}

export function runEntry(entry: string, args: string[], env: Record<string, string>): Promise<Finished> {
  return collectOutput(spawnEntry(entry, args, env));
}

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** Where GET /metrics is served, with METRICS_PORT set. */
  metricsUrl: string | undefined;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** `npm start`'s entry as a process on an ephemeral port; resolves once it listens. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawnEntry('server/main.ts', [], { PORT: '0', HOST: '127.0.0.1', ...env });
  const output = await waitForOutput(child, /"msg":"listening"[^\n]*\n/);
  const line = output.split('\n').find((l) => l.includes('"msg":"listening"')) ?? '{}';
  const listening = JSON.parse(line) as { url: string; metrics?: string };
  return {
    child,
    url: listening.url,
    metricsUrl: listening.metrics,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.on('close', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}
