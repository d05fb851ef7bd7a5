// `npm run -s cli -- backup --to <file>`: a copy a store opens with the same rows and its key, taken
// while another process writes, and every refusal in one line that changes nothing.
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { backupCommand } from '../../server/provisioning/backup-command.js';
import type { ProgressLine } from '../../server/provisioning/progress-line.js';
import { PAGES_PER_STEP } from '../../server/store/backup.js';
import { openSqliteConnection } from '../../server/store/sqlite-connection.js';
import { openStore } from '../../server/store/store.js';
import { runEntry } from '../support/process.js';

const cli = (args: string[], env: Record<string, string>) => runEntry('server/cli.ts', args, env);
const SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

/** Seeded once for each environment: every test works on a copy of its own. */
const templates = new Map<string, Promise<string>>();

function template(env: Record<string, string>): Promise<string> {
  const id = JSON.stringify(env);
  let made = templates.get(id);
  if (!made) {
    made = (async () => {
      const dir = mkdtempSync(join(tmpdir(), 'backup-command-seed-'));
      const seed = await cli(['seed', '--demo', '--json'], { DATABASE_URL: `sqlite:${join(dir, 'api.db')}`, ...env });
      expect(seed.code, seed.stderr).toBe(0);
      return dir;
    })();
    templates.set(id, made);
  }
  return made;
}

/** A folder with a seeded database of its own, with its development key unless SECRETS_KEY is given. */
async function seeded(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'backup-command-test-'));
  cpSync(await template(env), dir, { recursive: true });
  const file = join(dir, 'api.db');
  return { dir, file, env: { DATABASE_URL: `sqlite:${file}`, ...env } };
}

/** Every table's rows, in the order of their rowid. */
async function everyRow(file: string): Promise<Record<string, unknown[]>> {
  const connection = await openSqliteConnection(file, { readonly: true });
  try {
    const tables = connection
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all([])
      .map((row) => String((row as { name: string }).name));
    return Object.fromEntries(
      tables.map((table) => [
        table,
        connection
          .prepare(`SELECT * FROM "${table}" ORDER BY rowid`)
          .all([])
          .map((row) => ({ ...(row as object) })),
      ]),
    );
  } finally {
    connection.close();
  }
}

/** What a folder holds, each file with a digest of its bytes. */
function folderState(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir).map((name) => [
      name,
      createHash('sha256')
        .update(readFileSync(join(dir, name)))
        .digest('hex'),
    ]),
  );
}

describe('backup of a seeded database', () => {
  it('in development: a file a store opens with the same rows, and its key beside it (0600)', async () => {
    const { dir, file, env } = await seeded();
    const to = join(dir, 'copy.db');
    const result = await cli(['backup', '--to', to], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    // Nothing else is left in the folder: no temporary file, no -wal or -shm.
    expect(readdirSync(dir).sort()).toEqual(['api.db', 'api.db.key', 'copy.db', 'copy.db.key']);
    const printed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({
      file: to,
      bytes: statSync(to).size,
      quick_check: 'ok',
      page_size: 4096,
      key_file: `${to}.key`,
      tables: { workspaces: 1, api_keys: 2, destinations: 1, preset_versions: 3 },
    });
    expect(printed.pages).toBe(statSync(to).size / 4096);
    expect(printed.ms).toEqual(expect.any(Number));
    expect(await everyRow(to)).toEqual(await everyRow(file));
    expect(readFileSync(`${to}.key`, 'utf8')).toBe(readFileSync(`${file}.key`, 'utf8'));
    expect(statSync(`${to}.key`).mode & 0o777).toBe(0o600);

    // Restored: its key opens every secret, and the CLI starts on it without making another key.
    const key = Buffer.from(readFileSync(`${to}.key`, 'utf8').trim(), 'base64');
    const box = createSecretBox(key);
    const destinations = (await everyRow(to)).destinations as { config_sealed: string }[];
    for (const row of destinations) expect(JSON.parse(box.open(row.config_sealed))).toHaveProperty('secretKey');
    const store = await openStore(`sqlite:${to}`, box, { migrate: false });
    await store.close();
    const restored = await cli(['list-workspaces'], { DATABASE_URL: `sqlite:${to}` });
    const original = await cli(['list-workspaces'], env);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toBe(original.stdout);
    expect(restored.stderr).toBe('');
  });

  it('under SECRETS_KEY: no key file, and the result says the secrets need that key', async () => {
    const { dir, file, env } = await seeded({ SECRETS_KEY });
    const to = join(dir, 'copy.db');
    const result = await cli(['backup', '--to', to], env);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      key_file: null,
      secrets: expect.stringContaining('SECRETS_KEY'),
    });
    expect(existsSync(`${to}.key`)).toBe(false);
    expect(await everyRow(to)).toEqual(await everyRow(file));
    const restored = await cli(['list-workspaces'], { DATABASE_URL: `sqlite:${to}`, SECRETS_KEY });
    expect(restored.stdout).toBe((await cli(['list-workspaces'], env)).stdout);
  });
});

describe('backup while another process writes', () => {
  it('is consistent: quick_check ok, every row written before it began, and no gap after them', async () => {
    const { dir, file, env } = await seeded({ SECRETS_KEY });
    const writer = await openSqliteConnection(file);
    writer.exec('PRAGMA busy_timeout = 5000');
    writer.exec('CREATE TABLE probe (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)');
    // More pages than one step copies, so that writes fall between the steps.
    const rows = Math.ceil((PAGES_PER_STEP * 3 * 4096) / 1000);
    writer.exec(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows}) INSERT INTO probe (payload) SELECT randomblob(1000) FROM n`,
    );
    const insert = writer.prepare('INSERT INTO probe (payload) VALUES (randomblob(1000))');
    let written = rows;
    const timer = setInterval(() => {
      for (let i = 0; i < 5; i += 1) insert.run([]);
      written += 5;
    }, 1);
    const before = written;
    const to = join(dir, 'copy.db');
    const result = await cli(['backup', '--to', to], env).finally(() => clearInterval(timer));
    writer.close();
    expect(result.code, result.stderr).toBe(0);
    expect(written).toBeGreaterThan(before);
    const printed = JSON.parse(result.stdout) as { quick_check: string; tables: Record<string, number> };
    expect(printed.quick_check).toBe('ok');
    const copy = await openSqliteConnection(to, { readonly: true });
    const [range] = copy.prepare('SELECT count(*) AS n, min(id) AS first, max(id) AS last FROM probe').all([]) as {
      n: number;
      first: number;
      last: number;
    }[];
    copy.close();
    expect(range?.n).toBe(printed.tables.probe);
    expect(range?.n).toBeGreaterThanOrEqual(before);
    expect(range?.n).toBeLessThanOrEqual(written);
    expect({ ...range }).toEqual({ n: range?.n, first: 1, last: range?.n });
  });
});

describe('backup refuses in one line, exit 1, and changes nothing', () => {
  it.each([
    [
      'DATABASE_URL is PostgreSQL',
      { DATABASE_URL: 'postgres://u@127.0.0.1:1/api' },
      'copy.db',
      /pg_dump.*pg_restore.*SECRETS_KEY/,
    ],
    ['an in-memory database', { DATABASE_URL: 'sqlite::memory:' }, 'copy.db', /in-memory/],
    ['no database file', { DATABASE_URL: 'sqlite:{dir}/none.db' }, 'copy.db', /^there is no database at /],
    ['the target exists', {}, 'taken.db', /taken\.db exists already: nothing was written/],
    ['its key file exists', {}, 'keyed.db', /keyed\.db\.key exists already/],
    ['the target is the database', {}, 'api.db', /^--to names the database itself/],
    ['the target is the database by a link', {}, 'link.db', /^--to names the database itself/],
    ['the folder does not exist', {}, 'missing/copy.db', /^the folder of .*missing\/copy\.db does not exist/],
    ['the folder is a file', {}, 'taken.db/copy.db', /does not exist/],
  ])('%s', async (_what, given, target, message) => {
    const { dir, env } = await seeded();
    symlinkSync(join(dir, 'api.db'), join(dir, 'link.db'));
    writeFileSync(join(dir, 'taken.db'), 'mine');
    writeFileSync(join(dir, 'keyed.db.key'), 'mine');
    const before = folderState(dir);
    const url = (given as { DATABASE_URL?: string }).DATABASE_URL?.replace('{dir}', dir);
    const result = await cli(['backup', '--to', join(dir, target)], { ...env, ...(url && { DATABASE_URL: url }) });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(folderState(dir)).toEqual(before);
  });

  it('a folder that cannot be written', async () => {
    const { dir, env } = await seeded();
    // root writes any folder whatever its mode; /proc is one where no file can be made.
    const folder = process.getuid?.() === 0 ? '/proc' : join(dir, 'locked');
    if (folder !== '/proc') {
      mkdirSync(folder);
      chmodSync(folder, 0o555);
    }
    const before = folderState(dir);
    const result = await cli(['backup', '--to', join(folder, 'copy.db')], env);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(
      /^the folder of .*copy\.db cannot be written \(E[A-Z]+\): nothing was written$/,
    );
    expect(folderState(dir)).toEqual(before);
    expect(existsSync(join(folder, 'copy.db'))).toBe(false);
  });

  it('without --to: a usage error, exit 2, with the usage', async () => {
    const { env } = await seeded();
    const result = await cli(['backup'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^--to is required\n\nUsage: npm run -s cli -- backup --to FILE\n/);
  });

  it('help backup shows its usage', async () => {
    const result = await cli(['help', 'backup'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: npm run -s cli -- backup --to FILE\nCopy the SQLite database/);
    expect(result.stdout).toContain('--to FILE');
  });
});

describe('an interrupted backup', () => {
  it('leaves nothing under the name given, nor a key file, nor its temporary file', async () => {
    const { dir, file } = await seeded();
    const writer = await openSqliteConnection(file);
    writer.exec(
      `CREATE TABLE probe (payload BLOB); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${PAGES_PER_STEP * 5}) INSERT INTO probe SELECT randomblob(1000) FROM n`,
    );
    writer.close();
    const before = folderState(dir);
    const told: string[] = [];
    const progress: ProgressLine = {
      update: (text) => {
        told.push(text);
        throw new Error('interrupted');
      },
      end: () => told.push('end'),
    };
    const to = join(dir, 'copy.db');
    await expect(
      backupCommand().runWithoutStore(
        { to },
        { databaseUrl: `sqlite:${file}`, developmentKeyFile: (database) => `${database}.key`, progress },
      ),
    ).rejects.toThrow('interrupted');
    expect(told).toEqual([expect.stringMatching(/^backup: \d+% of \d+ pages$/), 'end']);
    expect(folderState(dir)).toEqual(before);
  });
});
