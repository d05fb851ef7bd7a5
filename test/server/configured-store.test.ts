// The store a configuration names, opened as the server and the CLI open it: with the
// configuration's keys and database settings, and the development key of a new database saved only
// once that database has opened.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { openConfiguredStore } from '../../server/configured-store.js';

describe('the configured store', () => {
  it('opens the database the configuration names, then saves its new development key, with its warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'configured-store-'));
    const warnings: string[] = [];
    const config = loadConfig({ NODE_ENV: 'development', DATABASE_URL: `sqlite:${join(dir, 'api.db')}` }, (message) =>
      warnings.push(message),
    );
    expect([existsSync(join(dir, 'api.db.key')), warnings]).toEqual([false, []]);
    const store = await openConfiguredStore(config);
    try {
      expect(await store.workspaces.count()).toBe(0);
      expect(existsSync(join(dir, 'api.db.key'))).toBe(true);
      expect(warnings).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('takes the options it is given over the configuration (the CLI migrates a database the server would not)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'configured-store-'));
    const config = loadConfig(
      { NODE_ENV: 'development', DATABASE_URL: `sqlite:${join(dir, 'api.db')}`, MIGRATE_ON_START: 'false' },
      () => undefined,
    );
    await expect(openConfiguredStore(config)).rejects.toThrow(/migrat/i);
    expect(existsSync(join(dir, 'api.db.key'))).toBe(false);
    const store = await openConfiguredStore(config, { migrate: true });
    await store.close();
    expect(existsSync(join(dir, 'api.db.key'))).toBe(true);
  });
});
