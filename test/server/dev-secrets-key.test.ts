// Without SECRETS_KEY, in development, each database gets a key of its own, generated once beside
// it. A database from before, which used the one `secrets.key` of its folder, takes that key over,
// so that nothing it holds becomes unreadable.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { developmentKeyFile } from '../../server/dev-key-file.js';

/** The configuration of a database, its development key saved as the server does once the database has opened. */
const configFor = (databaseUrl: string, warnings: string[] = []) => {
  const config = loadConfig({ NODE_ENV: 'development', DATABASE_URL: databaseUrl }, (message) =>
    warnings.push(message),
  );
  config.developmentKey?.save();
  return config;
};

describe('the development secrets key', () => {
  it('is one per database, beside its SQLite file, generated once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dev-key-'));
    const warnings: string[] = [];
    const first = configFor(`sqlite:${join(dir, 'a.db')}`, warnings);
    const second = configFor(`sqlite:${join(dir, 'b.db')}`, warnings);
    expect(first.secretsKey.equals(second.secretsKey)).toBe(false);
    expect(existsSync(join(dir, 'a.db.key'))).toBe(true);
    expect(statSync(join(dir, 'a.db.key')).mode & 0o777).toBe(0o600);
    expect(warnings).toEqual([
      `SECRETS_KEY is not set: generated a development key into ${join(dir, 'a.db.key')}. Set SECRETS_KEY in production.`,
      `SECRETS_KEY is not set: generated a development key into ${join(dir, 'b.db.key')}. Set SECRETS_KEY in production.`,
    ]);
    // Read again, not generated again.
    expect(configFor(`sqlite:${join(dir, 'a.db')}`).secretsKey.equals(first.secretsKey)).toBe(true);
  });

  it('of a database that used the shared secrets.key of its folder, is that key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dev-key-'));
    const shared = randomBytes(32);
    writeFileSync(join(dir, 'secrets.key'), `${shared.toString('base64')}\n`);
    writeFileSync(join(dir, 'old.db'), '');
    const warnings: string[] = [];
    expect(configFor(`sqlite:${join(dir, 'old.db')}`, warnings).secretsKey.equals(shared)).toBe(true);
    expect(readFileSync(join(dir, 'old.db.key'), 'utf8').trim()).toBe(shared.toString('base64'));
    expect(warnings[0]).toContain(`copied from ${join(dir, 'secrets.key')}`);
    // A new database of the same folder gets a key of its own.
    expect(configFor(`sqlite:${join(dir, 'new.db')}`).secretsKey.equals(shared)).toBe(false);
  });

  it('is written, and its warning said, only when saved: a database that does not open leaves no key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dev-key-'));
    const warnings: string[] = [];
    const config = loadConfig({ NODE_ENV: 'development', DATABASE_URL: `sqlite:${join(dir, 'a.db')}` }, (message) =>
      warnings.push(message),
    );
    expect(config.secretsKey.length).toBe(32);
    expect([existsSync(join(dir, 'a.db.key')), warnings]).toEqual([false, []]);
    config.developmentKey?.save();
    expect(readFileSync(join(dir, 'a.db.key'), 'utf8').trim()).toBe(config.secretsKey.toString('base64'));
    expect(warnings).toHaveLength(1);
  });

  it('that cannot be written is a configuration error of one line, naming the file and why', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dev-key-'));
    // A file where the key's folder should be.
    writeFileSync(join(dir, 'not-a-folder'), '');
    const keyFile = join(dir, 'not-a-folder', 'api.db.key');
    const warnings: string[] = [];
    const config = loadConfig(
      { NODE_ENV: 'development', DATABASE_URL: `sqlite:${join(dir, 'not-a-folder', 'api.db')}` },
      (message) => warnings.push(message),
    );
    expect(config.developmentKey?.file).toBe(keyFile);
    expect(() => config.developmentKey?.save()).toThrow(
      new ConfigError(
        `SECRETS_KEY is not set, and the development key ${keyFile} cannot be made (EEXIST): set SECRETS_KEY, or a DATABASE_URL in a folder that can be written.`,
      ),
    );
    expect(warnings).toEqual([]);
  });

  it('that exists but is not a key is a configuration error naming the file and its length, not a new key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dev-key-'));
    writeFileSync(join(dir, 'api.db.key'), 'not base64 of 32 bytes\n');
    expect(() => configFor(`sqlite:${join(dir, 'api.db')}`)).toThrow(
      new ConfigError(`${join(dir, 'api.db.key')} must be 32 bytes encoded in base64 (got 13 bytes)`),
    );
    expect(readFileSync(join(dir, 'api.db.key'), 'utf8')).toBe('not base64 of 32 bytes\n');
  });

  it('of a PostgreSQL database is named after its server and database', () => {
    expect(developmentKeyFile('postgres://u:p@db.internal:5433/api')).toBe(
      join('data', 'postgres-db.internal-5433-api.key'),
    );
    expect(developmentKeyFile('sqlite:./data/api.db')).toBe('./data/api.db.key');
  });
});
