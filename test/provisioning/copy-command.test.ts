// `copy-database` as an operator runs it, SQLite to SQLite (test/postgres/copy-to-postgres.test.ts
// crosses to PostgreSQL): a copy killed with SIGKILL at a random point and resumed ends with the
// same checksums as one that was not; what it refuses is one line with exit 1, before it writes.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSecretBox, secretsKeyId } from '../../server/domain/secrets.js';
import { copyCommand } from '../../server/provisioning/copy-command.js';
import type { ProgressLine } from '../../server/provisioning/progress-line.js';
import { COPIED_TABLES } from '../../server/store/copy/copied-tables.js';
import { openDatabase, parseDatabaseUrl } from '../../server/store/database.js';
import { fillDatabase, sqliteFile } from '../support/copy-fixtures.js';
import { checksumsOf, copyCli, killedCopy, largeSource, SECRETS_KEY } from '../support/copy-processes.js';
import { runEntry } from '../support/process.js';

/** Whether the SQLite target has committed a batch of the copy. */
const committedInto = (url: string) => async () => {
  if (!existsSync(url.slice('sqlite:'.length))) return false;
  const { db } = await openDatabase(parseDatabaseUrl(url));
  try {
    const rows = await db.selectFrom('copy_progress').select('rows_copied').execute();
    return rows.length > 0;
  } finally {
    await db.destroy();
  }
};

describe('a copy killed and resumed', () => {
  it('ends with the same checksums as one that was not, and is refused without --resume meanwhile', async () => {
    const source = sqliteFile();
    await largeSource(source.url);
    const env = { DATABASE_URL: source.url };
    const whole = sqliteFile();
    const uninterrupted = await copyCli(['--to', whole.url], env);
    expect(uninterrupted.code, uninterrupted.stderr).toBe(0);

    const target = sqliteFile();
    const delayMs = Math.floor(Math.random() * 400);
    await killedCopy(target.url, env, committedInto(target.url), delayMs);
    const again = await copyCli(['--to', target.url], env);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toMatch(
      /^The SQLite database .* holds (an interrupted|a finished) copy of the source: nothing was changed\. Run again with --resume/,
    );
    const resumed = await copyCli(['--to', target.url, '--resume'], env);
    expect(resumed.code, `killed after ${delayMs} ms: ${resumed.stderr}`).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ resumed: true, equal: true });
    expect(checksumsOf(resumed.stdout)).toEqual(checksumsOf(uninterrupted.stdout));
  }, 120_000);
});

describe('what copy-database refuses, in one line and exit 1', () => {
  it('a source whose secrets the keys given do not open, naming both key ids, and writes nothing', async () => {
    const source = sqliteFile();
    await largeSource(source.url, 0, 0);
    const target = sqliteFile();
    const wrongKey = Buffer.alloc(32, 3);
    const refused = await copyCli(['--to', target.url], {
      DATABASE_URL: source.url,
      SECRETS_KEY: wrongKey.toString('base64'),
    });
    expect(refused.code).toBe(1);
    const lines = refused.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(secretsKeyId(Buffer.from(SECRETS_KEY, 'base64')));
    expect(lines[0]).toContain(`${secretsKeyId(wrongKey)} (SECRETS_KEY)`);
    expect(existsSync(target.url.slice('sqlite:'.length))).toBe(false);
  });

  it('a missing key: in development, the key made for a source without its key file, which is not saved', async () => {
    const source = sqliteFile();
    await largeSource(source.url, 0, 0);
    const target = sqliteFile();
    const refused = await copyCli(['--to', target.url], { DATABASE_URL: source.url, SECRETS_KEY: '' });
    expect(refused.code).toBe(1);
    const keyFile = `${source.url.slice('sqlite:'.length)}.key`;
    expect(refused.stderr.trim().split('\n').at(-1)).toMatch(
      new RegExp(
        `^Secrets key error: .*sealed under key ${secretsKeyId(Buffer.from(SECRETS_KEY, 'base64'))}.* Nothing was saved to ${keyFile}\\.`,
      ),
    );
    expect(existsSync(keyFile)).toBe(false);
    expect(existsSync(target.url.slice('sqlite:'.length))).toBe(false);
  });

  it('a target that does not answer, a missing source, and a missing --to (exit 2, with the usage)', async () => {
    const source = sqliteFile();
    await largeSource(source.url, 0, 0);
    const unreachable = await copyCli(['--to', 'postgres://postgres@127.0.0.1:9/api'], { DATABASE_URL: source.url });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr.trim()).toMatch(
      /^Cannot open the PostgreSQL database "api" on 127\.0\.0\.1:9 \(the target\): it cannot be reached \(ECONNREFUSED\)\.$/,
    );
    const missing = await copyCli(['--to', sqliteFile().url], { DATABASE_URL: `${source.url}.absent` });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toMatch(/^There is no database at .*\.absent \(DATABASE_URL\): nothing to copy\.$/);
    const noTarget = await copyCli([], { DATABASE_URL: source.url });
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toContain('--to URL');
  });

  it('says what it does in its help', async () => {
    const help = await runEntry('server/cli.ts', ['help', 'copy-database'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('copy-database --to URL [options]');
    expect(help.stdout).toMatch(/--resume +go on with a copy into --to that was interrupted/);
    expect(readFileSync('README.md', 'utf8')).toContain('copy-database --to');
  });
});

describe('its progress and its answer', () => {
  it('tells the rows of each table, the rate and the time left, and answers the report', async () => {
    const source = sqliteFile();
    const filled = await fillDatabase(source.url, createSecretBox(Buffer.from(SECRETS_KEY, 'base64')));
    const told: string[] = [];
    let ended = 0;
    const progress: ProgressLine = { update: (text) => void told.push(text), end: () => void ended++ };
    const target = sqliteFile();
    const report = (await copyCommand().runWithoutStore(
      { to: target.url },
      {
        databaseUrl: source.url,
        progress,
        secrets: filled.secrets,
        refuseKeys: () => {},
        targetSecrets: () => ({ secrets: filled.secrets }),
        connectTimeoutMs: 5000,
      },
    )) as { equal: boolean; tables: Record<string, { read: number }> };
    expect(report.equal).toBe(true);
    expect(Object.keys(report.tables)).toEqual(COPIED_TABLES.map((table) => table.name));
    expect(ended).toBe(1);
    for (const table of COPIED_TABLES)
      expect(told).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^copy ${table.name}: ${report.tables[table.name]?.read.toLocaleString('en-US')} of [\\d,]+ rows \\(100%\\), [\\d,]+ rows/s$`,
          ),
        ),
      );
  });
});
