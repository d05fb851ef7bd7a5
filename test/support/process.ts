// Runs the project's entry points as real processes: TypeScript sources through tsx, or the
// compiled build (a .js entry under dist/) with plain node, as `npm start` runs it.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { projectRoot } from '../../server/project-root.js';

export { projectRoot };

export function spawnEntry(entry: string, args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  const loader = entry.endsWith('.ts') ? ['--import', 'tsx'] : [];
  return spawn(process.execPath, [...loader, entry, ...args], {
    cwd: projectRoot,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', ...env },
  });
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runEntry(entry: string, args: string[], env: Record<string, string>): Promise<Finished> {
  const child = spawnEntry(entry, args, env);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Resolves with everything printed so far once stdout matches, or rejects after the timeout. */
export function waitForOutput(child: ChildProcessWithoutNullStreams, pattern: RegExp, timeoutMs = 15_000): Promise<string> {
  let output = '';
  let errors = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; stdout: ${output}; stderr: ${errors}`)), timeoutMs);
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (pattern.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ${pattern}; stdout: ${output}; stderr: ${errors}`));
    });
  });
}

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** `npm start`'s entry as a process on an ephemeral port; resolves once it listens. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawnEntry('server/main.ts', [], { PORT: '0', HOST: '127.0.0.1', ...env });
  const output = await waitForOutput(child, /"msg":"listening"[^\n]*\n/);
  const line = output.split('\n').find((l) => l.includes('"msg":"listening"')) ?? '{}';
  return {
    child,
    url: (JSON.parse(line) as { url: string }).url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.on('close', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}
