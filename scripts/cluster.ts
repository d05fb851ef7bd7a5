// npm run cluster -- --instances <n> [--port <p>]: the server as it runs in production, on this
// machine: built once, <n> instances (ports p+1...p+n, metrics on p+101...) on DATABASE_URL
// (PostgreSQL) and REDIS_URL, behind HAProxy on 127.0.0.1:<p> (default 3000) with the
// configuration of deploy/. Like a process manager it starts again an instance that exits; Ctrl-C
// (or SIGTERM) stops them all, each draining as in production. The instances print the URLs of
// the balancer (PUBLIC_URL), not their own; HAProxy's configuration lives in a temporary folder,
// removed when the cluster exits.
// Exit codes: 0 stopped, 1 something did not start (HAProxy missing, an instance failing), 2 a bad
// argument or setting.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Address, clusterInstances, haproxyConfig, SHUTDOWN_DELAY_MS } from '../deploy/haproxy-config.js';
import { projectRoot } from '../server/project-root.js';
import { runMain } from '../server/run-main.js';
import { parseArgsOrMessage } from './shared/cli-args.js';

const USAGE = 'usage: npm run cluster -- --instances <n> [--port <p>]';
const HOST = '127.0.0.1';
const METRICS_OFFSET = 100;
const RESTART_PAUSE_MS = 200;

function fail(code: number, message: string): number {
  console.error(`cluster: ${message}`);
  return code;
}

export interface ClusterOptions {
  instances: number;
  port: number;
}

export function parseClusterArgs(args: string[]): ClusterOptions | string {
  const parsed = parseArgsOrMessage({ args, options: { instances: { type: 'string' }, port: { type: 'string' } } });
  if (typeof parsed === 'string') return parsed;
  const { values } = parsed;
  const instances = Number(values.instances);
  if (!Number.isInteger(instances) || instances < 1 || instances > 16)
    return `--instances must be a whole number from 1 to 16, got ${JSON.stringify(values.instances ?? '')}`;
  const port = Number(values.port ?? '3000');
  if (!Number.isInteger(port) || port < 1024 || port + METRICS_OFFSET + instances > 65535)
    return `--port must be a port from 1024 that leaves room for the instances after it, got ${JSON.stringify(values.port)}`;
  return { instances, port };
}

/** What the cluster needs of the environment, or the one line saying what is missing. */
export function checkEnvironment(env: NodeJS.ProcessEnv): string | undefined {
  if (!env.DATABASE_URL?.startsWith('postgres://') && !env.DATABASE_URL?.startsWith('postgresql://'))
    return 'set DATABASE_URL to a PostgreSQL database (postgres://...): the instances share it';
  if (!env.REDIS_URL) return 'set REDIS_URL (redis://...): the instances share their rate limits through it';
  if (!env.SECRETS_KEY)
    return 'set SECRETS_KEY (openssl rand -base64 32): every instance must seal secrets with the same key';
  return undefined;
}

/**
 * The environment of an instance: production, its own ports, and the balancer's address as
 * PUBLIC_URL (unless one is given), for the URLs it prints. The OTEL_* variables go to every
 * instance, each naming itself by its address (`service.instance.id`), so that a trace that comes
 * in through the balancer shows which instance served it.
 */
export function instanceEnvironment(env: NodeJS.ProcessEnv, instance: Address, front: Address): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'production',
    ...env,
    HOST: instance.host,
    PORT: String(instance.port),
    METRICS_PORT: String(instance.port + METRICS_OFFSET),
    PUBLIC_URL: env.PUBLIC_URL || `http://${front.host}:${front.port}`,
    TRUST_PROXY: env.TRUST_PROXY || 'loopback',
    SHUTDOWN_DELAY_MS: env.SHUTDOWN_DELAY_MS || String(SHUTDOWN_DELAY_MS),
    OTEL_RESOURCE_ATTRIBUTES: [env.OTEL_RESOURCE_ATTRIBUTES, `service.instance.id=${instance.host}:${instance.port}`]
      .filter(Boolean)
      .join(','),
  };
}

/** A new temporary folder, removed when this process exits, whichever way short of SIGKILL. */
export function temporaryFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

function haproxyInstalled(): boolean {
  return spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).error === undefined;
}

/** Lines of a child's output, prefixed with its name. */
function relay(child: ChildProcess, name: string): void {
  for (const [stream, target] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    let rest = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) target.write(`[${name}] ${line}\n`);
    });
  }
}

async function waitUntilReady(url: string, child: ChildProcess, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

export async function main(argv: string[]): Promise<number> {
  const options = parseClusterArgs(argv);
  if (typeof options === 'string') return fail(2, `${options} (${USAGE})`);
  const missing = checkEnvironment(process.env);
  if (missing) return fail(2, missing);
  if (!haproxyInstalled())
    return fail(1, 'HAProxy is not installed: `sudo apt-get install haproxy` (Debian, Ubuntu), then run this again.');

  const { buildServer } = (await import(join(projectRoot, 'scripts', 'build-server.mjs'))) as {
    buildServer(): Promise<boolean>;
  };
  if (!(await buildServer())) return 1;

  const front: Address = { host: HOST, port: options.port };
  const addresses = clusterInstances(front, options.instances);
  let stopping = false;
  const running = new Map<number, ChildProcess>();

  const start = (index: number): ChildProcess => {
    const address = addresses[index] as Address;
    const name = `app${index + 1}`;
    const child = spawn(process.execPath, [join(projectRoot, 'dist', 'server', 'main.js')], {
      cwd: projectRoot,
      env: instanceEnvironment(process.env, address, front),
    });
    relay(child, name);
    running.set(index, child);
    console.log(
      `cluster: ${name} pid ${child.pid} on http://${address.host}:${address.port} (metrics on port ${address.port + METRICS_OFFSET})`,
    );
    child.on('exit', (code, signal) => {
      if (stopping) return;
      console.log(`cluster: ${name} exited (${signal ?? `code ${code}`}); starting it again`);
      setTimeout(() => {
        if (!stopping) start(index);
      }, RESTART_PAUSE_MS);
    });
    return child;
  };

  const configFile = join(temporaryFolder('cluster-'), 'haproxy.cfg');
  writeFileSync(configFile, haproxyConfig({ front, instances: addresses, servedBy: true }));

  const stopEverything = async (code: number): Promise<number> => {
    stopping = true;
    const children = [...running.values(), haproxy].filter((child): child is ChildProcess => child !== undefined);
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    return code;
  };
  // Once: a second Ctrl-C, or SIGTERM after it, waits for the same instances to drain. The cluster
  // runs until then: `stopped` is main's answer.
  let settle: (code: number) => void = () => undefined;
  const stopped = new Promise<number>((resolve) => {
    settle = resolve;
  });
  const stopAll = (code: number): Promise<number> => {
    if (!stopping) void stopEverything(code).then(settle);
    return stopped;
  };
  let haproxy: ChildProcess | undefined;
  process.on('SIGINT', () => void stopAll(0)).on('SIGTERM', () => void stopAll(0));

  // The first alone: it migrates an empty database and seeds the demo workspace, once.
  const first = start(0);
  if (!(await waitUntilReady(`http://${addresses[0]?.host}:${addresses[0]?.port}`, first))) {
    console.error('cluster: app1 did not become ready (its output is above).');
    return stopAll(1);
  }
  const others = addresses.slice(1).map((address, i) => [address, start(i + 1)] as const);
  const ready = await Promise.all(
    others.map(([address, child]) => waitUntilReady(`http://${address.host}:${address.port}`, child)),
  );
  if (ready.includes(false)) {
    console.error('cluster: an instance did not become ready (its output is above).');
    return stopAll(1);
  }

  haproxy = spawn('haproxy', ['-f', configFile, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  relay(haproxy, 'haproxy');
  haproxy.on('exit', (code) => {
    if (stopping) return;
    console.error(`cluster: HAProxy exited (code ${code}); stopping the instances.`);
    void stopAll(1);
  });
  if (!(await waitUntilReady(`http://${front.host}:${front.port}`, haproxy))) {
    console.error('cluster: HAProxy did not answer (its output is above).');
    return stopAll(1);
  }
  console.log(
    `cluster: ${options.instances} instance(s) behind HAProxy at http://${front.host}:${front.port} (configuration: ${configFile}); Ctrl-C stops them.`,
  );
  return stopped;
}

await runMain(main, import.meta.url);
