// Before the server serves, and before a command that touches secrets runs, its keys must open what
// the database holds: otherwise the start stops with one line naming the key ids of the data and
// the keys given, and no new development key is saved.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { openConfiguredStore } from '../../server/configured-store.js';
import { secretsKeyId } from '../../server/domain/secrets.js';
import { describeFailure } from '../../server/failure.js';
import { SecretsKeyMismatch } from '../../server/secrets-check.js';
import { type Finished, runEntry, type ServerProcess, startServerProcess } from '../support/process.js';

const keyA = Buffer.alloc(32, 21);
const keyB = Buffer.alloc(32, 22);
const [idA, idB] = [secretsKeyId(keyA), secretsKeyId(keyB)];
const b64 = (key: Buffer) => key.toString('base64');

/** No key from the environment the tests run in: each test gives its own. */
const NO_KEYS = { SECRETS_KEY: '', SECRETS_KEY_PREVIOUS: '' };

function database() {
  const dir = mkdtempSync(join(tmpdir(), 'secrets-check-'));
  const file = join(dir, 'api.db');
  return { url: `sqlite:${file}`, keyFile: `${file}.key` };
}

interface Seed {
  destination_id: string;
  workspace_id: string;
  management_key: string;
}

async function seed(env: Record<string, string>): Promise<Seed> {
  const seeded = await runEntry('server/cli.ts', ['seed', '--demo', '--json'], { ...NO_KEYS, ...env });
  expect(seeded.code, seeded.stderr).toBe(0);
  return JSON.parse(seeded.stdout) as Seed;
}

/** The one line a refused start says, for its key ids and their sources to be checked. */
function refusal(result: Finished): string {
  expect(result.code, result.stdout).toBe(1);
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^Secrets key error: /);
  return lines[0] ?? '';
}

const servers: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

describe('a start with keys that do not open the stored secrets', () => {
  it('in production, stops in one line naming the key of the data and SECRETS_KEY', async () => {
    const { url } = database();
    await seed({ DATABASE_URL: url, SECRETS_KEY: b64(keyA) });
    const started = await runEntry('server/main.ts', [], {
      ...NO_KEYS,
      NODE_ENV: 'production',
      DATABASE_URL: url,
      SECRETS_KEY: b64(keyB),
      PORT: '0',
    });
    expect(refusal(started)).toBe(
      `Secrets key error: the destination secrets in the database are sealed under key ${idA}, and the keys given (${idB} (SECRETS_KEY)) do not open those sealed under key ${idA}. Set SECRETS_KEY to the key they were sealed under, or give that key as SECRETS_KEY_PREVIOUS beside the new SECRETS_KEY and run \`npm run -s cli -- rotate-secrets-key\`.`,
    );
    expect(started.stdout).not.toContain('listening');
  });

  it('in development, stops naming the key file it read, or the new key, which it does not save', async () => {
    const { url, keyFile } = database();
    const development = { ...NO_KEYS, NODE_ENV: 'development', DATABASE_URL: url, PORT: '0' };
    await seed(development);
    const sealedUnder = secretsKeyId(Buffer.from(readFileSync(keyFile, 'utf8'), 'base64'));
    writeFileSync(keyFile, `${b64(keyB)}\n`);
    const wrongFile = refusal(await runEntry('server/main.ts', [], development));
    expect(wrongFile).toContain(`sealed under key ${sealedUnder}`);
    expect(wrongFile).toContain(`(${idB} (the development key file ${keyFile}))`);

    rmSync(keyFile);
    const newKey = refusal(await runEntry('server/main.ts', [], development));
    expect(newKey).toContain(`sealed under key ${sealedUnder}`);
    expect(newKey).toMatch(
      new RegExp(`\\([0-9a-f]{8} \\(a development key just generated for ${keyFile}\\)\\) do not open`),
    );
    expect(newKey).toContain(`Nothing was saved to ${keyFile}.`);
    expect(existsSync(keyFile)).toBe(false);
  }, 60_000);

  it('serves when the key of the data is given as SECRETS_KEY_PREVIOUS beside a new SECRETS_KEY', async () => {
    const { url } = database();
    const seeded = await seed({ DATABASE_URL: url, SECRETS_KEY: b64(keyA) });
    const server = await startServerProcess({
      NODE_ENV: 'production',
      DATABASE_URL: url,
      SECRETS_KEY: b64(keyB),
      SECRETS_KEY_PREVIOUS: b64(keyA),
    });
    servers.push(server);
    const response = await fetch(`${server.url}/api/v1/observability/destinations/${seeded.destination_id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${seeded.management_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sampling_rate: 0.5 }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { sampling_rate: number } }).data.sampling_rate).toBe(0.5);
  }, 60_000);
});

describe('a command that touches secrets, with keys that do not open the stored ones', () => {
  const cli = (args: string[], env: Record<string, string>) => runEntry('server/cli.ts', args, { ...NO_KEYS, ...env });

  it('refuses in the same line; a command that touches none still runs', async () => {
    const { url } = database();
    const seeded = await seed({ DATABASE_URL: url, SECRETS_KEY: b64(keyA) });
    const env = { DATABASE_URL: url, SECRETS_KEY: b64(keyB) };
    const commands = [
      ['seed', '--demo'],
      [
        'create-destination',
        '--workspace',
        seeded.workspace_id,
        '--type',
        'webhook',
        '--config',
        '{"url":"https://example.com/hook"}',
      ],
      ['rotate-secrets-key'],
    ];
    for (const args of commands) {
      const line = refusal(await cli(args, env));
      expect(line, args[0]).toContain(`sealed under key ${idA}, and the keys given (${idB} (SECRETS_KEY))`);
    }
    const listed = await cli(['list-workspaces'], env);
    expect(listed.code, listed.stderr).toBe(0);
    // Nothing was written by the refused commands: one workspace, rotated by nothing.
    expect((JSON.parse(listed.stdout) as { workspaces: unknown[] }).workspaces).toHaveLength(1);
    const rotated = await cli(['rotate-secrets-key'], { ...env, SECRETS_KEY_PREVIOUS: b64(keyA) });
    expect(JSON.parse(rotated.stdout)).toEqual({ resealed: 1, current: 0 });
  }, 60_000);

  it('in development, refuses without saving the new key, and so does any command that would save one', async () => {
    const { url, keyFile } = database();
    const development = { NODE_ENV: 'development', DATABASE_URL: url };
    await seed(development);
    rmSync(keyFile);
    for (const args of [['rotate-secrets-key'], ['seed', '--demo'], ['list-workspaces']]) {
      expect(refusal(await cli(args, development)), args[0]).toContain(`Nothing was saved to ${keyFile}.`);
      expect(existsSync(keyFile), args[0]).toBe(false);
    }
  }, 60_000);
});

describe('the check', () => {
  it('passes an empty database, and refuses in a SecretsKeyMismatch that describeFailure says in one line', async () => {
    const { url } = database();
    const withKey = (key: Buffer) => loadConfig({ DATABASE_URL: url, SECRETS_KEY: b64(key) }, () => undefined);
    // Empty: any key passes.
    await (await openConfiguredStore(withKey(keyB))).close();
    const store = await openConfiguredStore(withKey(keyA));
    const workspace = await store.workspaces.create('Checked', new Date());
    await store.destinations.create(
      { workspace_id: workspace.id, type: 'webhook', name: null, config: { url: 'https://example.com/hook' } },
      new Date(),
    );
    await store.close();
    await (await openConfiguredStore(withKey(keyA))).close();
    const refused = await openConfiguredStore(withKey(keyB)).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(SecretsKeyMismatch);
    expect(describeFailure(refused)).toMatch(new RegExp(`^Secrets key error: [^\\n]*${idA}[^\\n]*${idB}[^\\n]*$`));
    // Asked not to check, it opens all the same (the commands that touch no secret).
    const unchecked = await openConfiguredStore(withKey(keyB), { checkSecrets: false });
    await unchecked.destinations.create(
      { workspace_id: workspace.id, type: 'webhook', name: null, config: { url: 'https://example.com/other' } },
      new Date(),
    );
    await unchecked.close();
    const [first, second] = [idA, idB].sort();
    const both = await openConfiguredStore(withKey(Buffer.alloc(32, 23))).catch((err: unknown) => err);
    expect((both as Error).message).toContain(
      `sealed under keys ${first}, ${second}, and the keys given (${secretsKeyId(Buffer.alloc(32, 23))} (SECRETS_KEY)) do not open those sealed under keys ${first}, ${second}.`,
    );
  });
});
