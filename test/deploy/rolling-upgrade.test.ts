// Two releases on one PostgreSQL database behind HAProxy, under load, as a rolling deploy and a
// rollback run them. The old release is this tree; the new one is this tree's build plus an expand
// migration, as the next release would ship it (a column on each table, and an index). One instance
// is upgraded (it migrates), the other, still old, is killed and started again as the old release,
// then upgraded; the first is rolled back to the old release. No request fails, every start
// succeeds, and every acknowledged PATCH is stored.
// Needs TEST_POSTGRES_URL and HAProxy; CI has both and fails without them.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Address, haproxyConfig, SHUTDOWN_DELAY_MS } from '../../deploy/haproxy-config.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { openStore } from '../../server/store/store.js';
import { createPostgresDatabase, type TestDatabase } from '../support/database.js';
import { readDestination } from '../support/destinations.js';
import { projectRoot } from '../support/process.js';
import { provision } from '../support/server.js';

const postgres = process.env.TEST_POSTGRES_URL;
const haproxy = spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).error === undefined;
const missing = [!postgres && 'TEST_POSTGRES_URL', !haproxy && 'haproxy'].filter(Boolean);
const NOW = new Date();
const CLIENTS = 4;
const NEXT_MIGRATION = '0004_expand_rolling_upgrade_probe';
const TABLES = ['workspaces', 'api_keys', 'key_usage_daily', 'destinations', 'presets', 'preset_versions'];

/** The next release's migration, compiled as its build would ship it. */
const nextMigration = `export async function up(db) {
${TABLES.map((table) => `  await db.schema.alterTable('${table}').addColumn('added_in_next_release', 'text').execute();`).join('\n')}
  await db.schema.createIndex('destinations_type_idx').on('destinations').column('type').execute();
}
`;

/** A release as it is shipped: the build, the contract, package.json and the dependencies. */
function nextRelease(): string {
  const folder = mkdtempSync(join(tmpdir(), 'next-release-'));
  for (const part of ['dist', 'openapi.yaml', 'package.json'])
    cpSync(join(projectRoot, part), join(folder, part), { recursive: true });
  symlinkSync(join(projectRoot, 'node_modules'), join(folder, 'node_modules'));
  writeFileSync(join(folder, 'dist', 'server', 'store', 'migrations', `${NEXT_MIGRATION}.js`), nextMigration);
  return folder;
}

interface Instance {
  child: ChildProcess;
  release: 'old' | 'new';
  output: () => string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function ready(url: string, child: ChildProcess, timeoutMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return true;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  return false;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

describe.skipIf(missing.length > 0 && process.env.CI !== 'true')(
  `a rolling upgrade and a rollback behind HAProxy${missing.length > 0 ? ` (skipped: ${missing.join(', ')} missing)` : ''}`,
  () => {
    let database: TestDatabase;
    let newRelease: string;
    const secretsKey = randomBytes(32);
    const children: ChildProcess[] = [];

    beforeAll(async () => {
      expect(missing, 'what the rolling upgrade needs').toEqual([]);
      const build = spawnSync('npm', ['run', '-s', 'build:server'], { cwd: projectRoot, encoding: 'utf8' });
      expect(build.status, build.stderr).toBe(0);
      newRelease = nextRelease();
      database = await createPostgresDatabase();
    }, 120_000);

    afterAll(async () => {
      for (const child of children) child.kill('SIGKILL');
      await Promise.all(children.map(exited));
      await database?.drop();
      if (newRelease) rmSync(newRelease, { recursive: true, force: true });
    });

    it('fails no request, and every start of either release succeeds', async () => {
      // The old release's schema and data, as it has served them so far.
      const store = await openStore(database.url, createSecretBox(secretsKey));
      const workspace = await store.workspaces.create('Upgrade', NOW);
      const key = await provision.createKey(
        store,
        { workspaceId: workspace.id, name: 'Admin', kind: 'management' },
        NOW,
      );
      const destinationIds: string[] = [];
      for (let i = 0; i < CLIENTS; i++)
        destinationIds.push(
          (
            await provision.createDestination(
              store,
              { workspaceId: workspace.id, type: 'otel-collector', config: { endpoint: 'https://otel.example.com' } },
              NOW,
            )
          ).id,
        );
      for (let version = 1; version <= 3; version++)
        await provision.addPresetVersion(
          store,
          { workspaceId: workspace.id, slug: 'upgrade', config: { model: 'm/x' } as never, creatorId: 'u' },
          NOW,
        );

      const port = randomInt(10_000, 32_000);
      const front: Address = { host: '127.0.0.1', port };
      const addresses: Address[] = [1, 2].map((i) => ({ host: '127.0.0.1', port: port + i }));
      const starts: string[] = [];
      const start = async (index: number, release: 'old' | 'new'): Promise<Instance> => {
        const address = addresses[index] as Address;
        const folder = release === 'old' ? projectRoot : newRelease;
        const child = spawn(process.execPath, [join(folder, 'dist', 'server', 'main.js')], {
          cwd: folder,
          env: {
            ...process.env,
            NODE_ENV: 'production',
            LOG_LEVEL: 'warn',
            DATABASE_URL: database.url,
            SECRETS_KEY: secretsKey.toString('base64'),
            HOST: address.host,
            PORT: String(address.port),
            TRUST_PROXY: 'loopback',
            SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
            RATE_LIMIT_MAX: '1000000',
          },
        });
        children.push(child);
        let output = '';
        child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
        const up = await ready(`http://${address.host}:${address.port}`, child);
        starts.push(`app${index + 1} ${release}: ${up ? 'ready' : `did not start: ${output}`}`);
        return { child, release, output: () => output };
      };
      const stop = async (instance: Instance, signal: NodeJS.Signals) => {
        instance.child.kill(signal);
        await exited(instance.child);
      };

      const instances = [await start(0, 'old'), await start(1, 'old')];
      await store.close();
      const configFile = join(mkdtempSync(join(tmpdir(), 'upgrade-haproxy-')), 'haproxy.cfg');
      writeFileSync(configFile, haproxyConfig({ front, instances: addresses }));
      const balancer = spawn('haproxy', ['-f', configFile, '-db'], { stdio: 'ignore' });
      children.push(balancer);
      expect(await ready(`http://${front.host}:${front.port}`, balancer)).toBe(true);

      const url = `http://${front.host}:${front.port}`;
      const headers = { authorization: `Bearer ${key.rawKey}`, 'content-type': 'application/json' };
      const failures: string[] = [];
      const acknowledged = new Map<string, number>();
      let answered = 0;
      let loading = true;
      const load = Promise.all(
        destinationIds.map(async (destinationId, client) => {
          for (let i = 1; loading; i++) {
            const rate = (1000 + client * 100_000 + i) / 1_000_000;
            const kind = i % 3;
            try {
              const response =
                kind === 0
                  ? await fetch(`${url}/api/v1/observability/destinations/${destinationId}`, {
                      method: 'PATCH',
                      headers,
                      body: JSON.stringify({ sampling_rate: rate }),
                    })
                  : kind === 1
                    ? await fetch(`${url}/api/v1/keys/${key.hash}`, { headers })
                    : await fetch(`${url}/api/v1/presets/upgrade/versions?limit=2`, { headers });
              await response.arrayBuffer();
              answered += 1;
              if (response.status !== 200) failures.push(`${kind} ${response.status}`);
              else if (kind === 0) acknowledged.set(destinationId, rate);
            } catch (err) {
              failures.push(`${kind} ${String((err as Error).cause ?? (err as Error).message)}`);
            }
          }
        }),
      );
      // Long enough for HAProxy to count an instance started again as up (two good checks).
      const settle = () => sleep(1500);

      await settle();
      // Upgrade the first: it migrates the database as it starts.
      await stop(instances[0] as Instance, 'SIGTERM');
      instances[0] = await start(0, 'new');
      await settle();
      // The second, still old, crashes and is started again as the old release.
      await stop(instances[1] as Instance, 'SIGKILL');
      instances[1] = await start(1, 'old');
      await settle();
      // Upgrade it too; then roll the first back to the old release.
      await stop(instances[1] as Instance, 'SIGTERM');
      instances[1] = await start(1, 'new');
      await settle();
      await stop(instances[0] as Instance, 'SIGTERM');
      instances[0] = await start(0, 'old');
      await settle();
      loading = false;
      await load;

      expect(starts).toEqual([
        'app1 old: ready',
        'app2 old: ready',
        'app1 new: ready',
        'app2 old: ready',
        'app2 new: ready',
        'app1 old: ready',
      ]);
      expect(failures).toEqual([]);
      expect(answered).toBeGreaterThan(200);

      // The new release migrated the database; every acknowledged PATCH is stored.
      const after = await openStore(database.url, createSecretBox(secretsKey));
      try {
        expect(after.migrationsApplied).toEqual([]);
        for (const [destinationId, rate] of acknowledged)
          expect((await readDestination(after, workspace.id, destinationId))?.state.sampling_rate).toBe(rate);
      } finally {
        await after.close();
      }
      const recorded = new pg.Client({ connectionString: database.url });
      await recorded.connect();
      try {
        const { rows } = await recorded.query('select name from kysely_migration order by name');
        expect(rows.map((row: { name: string }) => row.name).at(-1)).toBe(NEXT_MIGRATION);
      } finally {
        await recorded.end();
      }
    }, 180_000);
  },
);
