// deploy/haproxy.cfg is what deploy/haproxy-config.ts writes for three instances, HAProxy takes it,
// its drain delay outlasts its checks, and it limits connections per client address as the
// instances do; npm run cluster refuses what it cannot run in one line, gives its instances the
// balancer's address for the URLs they print, and leaves no temporary folder.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { type AddressInfo, connect, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CHECK_FALL,
  CHECK_INTERVAL_MS,
  clusterInstances,
  DETECTION_MS,
  haproxyConfig,
  SHUTDOWN_DELAY_MS,
} from '../../deploy/haproxy-config.js';
import { checkEnvironment, instanceEnvironment, parseClusterArgs } from '../../scripts/cluster.js';
import { DEFAULT_MAX_CONNECTIONS_PER_ADDRESS } from '../../server/http/connection-limit.js';
import { projectRoot } from '../support/process.js';

const committed = join(projectRoot, 'deploy', 'haproxy.cfg');
const front = { host: '127.0.0.1', port: 3000 };
const haproxy = spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).error === undefined;

describe('deploy/haproxy.cfg', () => {
  it('is what haproxy-config.ts writes for three instances on loopback', () => {
    expect(readFileSync(committed, 'utf8')).toBe(haproxyConfig({ front, instances: clusterInstances(front, 3) }));
  });

  it.skipIf(!haproxy && process.env.CI !== 'true')('is valid for HAProxy (haproxy -c)', () => {
    const check = spawnSync('haproxy', ['-c', '-f', committed], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
  });

  it('checks /readyz, and the drain delay outlasts the time the checks take to notice', () => {
    const config = readFileSync(committed, 'utf8');
    expect(config).toContain('http-check send meth GET uri /readyz');
    expect(config).toContain(`default-server inter ${CHECK_INTERVAL_MS}ms fall ${CHECK_FALL}`);
    expect(DETECTION_MS).toBeGreaterThanOrEqual(CHECK_INTERVAL_MS * CHECK_FALL);
    expect(SHUTDOWN_DELAY_MS).toBeGreaterThan(DETECTION_MS);
    expect(config).toContain(`${SHUTDOWN_DELAY_MS} ms`);
  });
});

/** A free loopback port (free when asked; HAProxy binds it right after). */
async function freePort(): Promise<number> {
  const server = createNetServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A connection from `localAddress`; resolves with what it received once closed, or with undefined if still open after `ms`. */
function connectionFrom(port: number, localAddress: string, request: string | undefined, ms: number) {
  return new Promise<{ received: string | undefined; socket: ReturnType<typeof connect> }>((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () => {
      if (request !== undefined) socket.write(request);
    });
    let received = '';
    const timer = setTimeout(() => resolve({ received: undefined, socket }), ms);
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received, socket });
    });
  });
}

describe('the per-address connection limit at the balancer', () => {
  it("is the instances' MAX_CONNECTIONS_PER_ADDRESS, counted on a stick table and enforced as connections come", () => {
    const config = readFileSync(committed, 'utf8');
    expect(config).toContain('tcp-request connection track-sc0 src');
    expect(config).toContain(
      `tcp-request connection reject if { sc_conn_cur(0) gt ${DEFAULT_MAX_CONNECTIONS_PER_ADDRESS} }`,
    );
  });

  it.skipIf(!haproxy && process.env.CI !== 'true')(
    'closes the connections of an address past it, while another address is served',
    async () => {
      const LIMIT = 3;
      const instance = createServer((_req, res) => res.end('hello')).listen(0, '127.0.0.1');
      await once(instance, 'listening');
      const dir = mkdtempSync(join(tmpdir(), 'haproxy-limit-'));
      const front = { host: '127.0.0.1', port: await freePort() };
      const file = join(dir, 'haproxy.cfg');
      const instances = [{ host: '127.0.0.1', port: (instance.address() as AddressInfo).port }];
      writeFileSync(file, haproxyConfig({ front, instances, maxConnectionsPerAddress: LIMIT }));
      const balancer = spawn('haproxy', ['-db', '-f', file]);
      const held: ReturnType<typeof connect>[] = [];
      try {
        const get = (from: string) =>
          connectionFrom(front.port, from, `GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 5000);
        await expect
          .poll(async () => (await get('127.0.0.1')).received?.split('\r\n')[0], { timeout: 10_000 })
          .toBe('HTTP/1.1 200 OK');
        for (let i = 0; i < LIMIT; i++) {
          const idle = await connectionFrom(front.port, '127.0.0.2', undefined, 300);
          held.push(idle.socket);
          expect(idle.received).toBeUndefined();
        }
        const past = await get('127.0.0.2');
        held.push(past.socket);
        expect(past.received).toBe('');
        expect((await get('127.0.0.1')).received).toMatch(/^HTTP\/1.1 200 OK[\s\S]*hello$/);
      } finally {
        for (const socket of held) socket.destroy();
        balancer.kill('SIGKILL');
        instance.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    30_000,
  );
});

describe('npm run cluster', () => {
  it('takes --instances and --port', () => {
    expect(parseClusterArgs(['--instances', '3'])).toEqual({ instances: 3, port: 3000 });
    expect(parseClusterArgs(['--instances', '2', '--port', '8000'])).toEqual({ instances: 2, port: 8000 });
  });

  it.each([
    [[], '--instances must be a whole number from 1 to 16, got ""'],
    [['--instances', '0'], '--instances must be a whole number from 1 to 16, got "0"'],
    [['--instances', 'three'], '--instances must be a whole number from 1 to 16, got "three"'],
    [
      ['--instances', '2', '--port', '80'],
      '--port must be a port from 1024 that leaves room for the instances after it, got "80"',
    ],
    [['--instances', '2', '--fast'], "Unknown option '--fast'"],
  ])('refuses %j', (args, message) => {
    expect(parseClusterArgs(args)).toBe(message);
  });

  it('needs PostgreSQL, Redis and one secrets key, and says which is missing', () => {
    const all = { DATABASE_URL: 'postgres://db/api', REDIS_URL: 'redis://r', SECRETS_KEY: 'k' };
    expect(checkEnvironment(all)).toBeUndefined();
    expect(checkEnvironment({ ...all, DATABASE_URL: 'sqlite:./data/api.db' })).toMatch(
      /^set DATABASE_URL to a PostgreSQL/,
    );
    expect(checkEnvironment({ ...all, REDIS_URL: '' })).toMatch(/^set REDIS_URL/);
    expect(checkEnvironment({ ...all, SECRETS_KEY: undefined })).toMatch(/^set SECRETS_KEY/);
  });

  it("gives each instance its own ports and the balancer's address as PUBLIC_URL, the base of the URLs it prints", () => {
    const env = { DATABASE_URL: 'postgres://db/api', PORT: '9999' };
    expect(instanceEnvironment(env, { host: '127.0.0.1', port: 3002 }, front)).toEqual({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://db/api',
      HOST: '127.0.0.1',
      PORT: '3002',
      METRICS_PORT: '3102',
      PUBLIC_URL: 'http://127.0.0.1:3000',
      TRUST_PROXY: 'loopback',
      SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
      OTEL_RESOURCE_ATTRIBUTES: 'service.instance.id=127.0.0.1:3002',
    });
    // Resource attributes given for tracing are kept, and the instance named after them.
    expect(
      instanceEnvironment({ OTEL_RESOURCE_ATTRIBUTES: 'team=api' }, { host: '127.0.0.1', port: 3001 }, front)
        .OTEL_RESOURCE_ATTRIBUTES,
    ).toBe('team=api,service.instance.id=127.0.0.1:3001');
    // What the environment sets is kept: a cluster behind another proxy says so.
    const given = { PUBLIC_URL: 'https://api.example.com', NODE_ENV: 'staging', TRUST_PROXY: '2' };
    expect(instanceEnvironment(given, { host: '127.0.0.1', port: 3001 }, front)).toMatchObject(given);
  });

  describe('its temporary folder', () => {
    const cluster = pathToFileURL(join(projectRoot, 'scripts', 'cluster.ts')).href;

    /** The folder a process made with temporaryFolder, whether it was there, and whether it is left, once the process has ended as `ending` ends it. */
    function folderAfter(ending: string) {
      const tmp = mkdtempSync(join(tmpdir(), 'cluster-folder-test-'));
      try {
        const code = [
          `import { existsSync, writeFileSync } from 'node:fs';`,
          `import { join } from 'node:path';`,
          `import { temporaryFolder } from ${JSON.stringify(cluster)};`,
          `const folder = temporaryFolder('cluster-');`,
          `writeFileSync(join(folder, 'haproxy.cfg'), '');`,
          'console.log(JSON.stringify({ folder, made: existsSync(folder) }));',
          ending,
        ].join('\n');
        const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
          cwd: projectRoot,
          env: { ...process.env, TMPDIR: tmp },
          encoding: 'utf8',
        });
        const { folder, made } = JSON.parse(run.stdout) as { folder: string; made: boolean };
        return { status: run.status, inTmp: folder.startsWith(tmp), made, left: existsSync(folder) };
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    }

    it.each([
      ['the process ends by itself', '', 0],
      ['it stops with an exit code (Ctrl-C, SIGTERM, an instance failing at start)', 'process.exit(1);', 1],
      ['an error nobody caught ends it', "throw new Error('unexpected');", 1],
    ])(
      'is removed when %s',
      (_when, ending, status) => {
        expect(folderAfter(ending)).toEqual({ status, inTmp: true, made: true, left: false });
      },
      30_000,
    );
  });

  it('says in one line, exit 2, what is wrong with its arguments', () => {
    const run = spawnSync('npm', ['run', '-s', 'cluster', '--', '--instances', '0'], {
      cwd: projectRoot,
      encoding: 'utf8',
    });
    expect(run.stderr.trim().split('\n')).toEqual([
      'cluster: --instances must be a whole number from 1 to 16, got "0" (usage: npm run cluster -- --instances <n> [--port <p>])',
    ]);
    expect(run.status).toBe(2);
  }, 60_000);
});
