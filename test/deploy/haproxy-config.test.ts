// deploy/haproxy.cfg is what deploy/haproxy-config.ts writes for three instances, HAProxy takes it,
// its drain delay outlasts its checks; npm run cluster refuses what it cannot run in one line.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CHECK_FALL,
  CHECK_INTERVAL_MS,
  clusterInstances,
  DETECTION_MS,
  haproxyConfig,
  SHUTDOWN_DELAY_MS,
} from '../../deploy/haproxy-config.js';
import { checkEnvironment, parseClusterArgs } from '../../scripts/cluster.js';
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
