// rotate-secrets-key re-encrypts every secret under the new key while reads go on.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { openDatabase, parseDatabaseUrl } from '../../server/store/database.js';
import { openStore } from '../../server/store/store.js';
import { runEntry, startServerProcess } from '../support/process.js';
import { provision } from '../support/server.js';

describe('rotate-secrets-key', () => {
  it('reseals every secret under the new key with no failed read meanwhile', async () => {
    const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'rotate-')), 'api.db')}`;
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const store = await openStore(databaseUrl, createSecretBox(oldKey));
    const workspace = await store.workspaces.create('Rotate', new Date());
    const apiKey = (
      await provision.createKey(store, { workspaceId: workspace.id, name: 'Admin', kind: 'management' }, new Date())
    ).rawKey;
    const ids: string[] = [];
    for (let i = 0; i < 150; i++) {
      // Long enough (32 characters or more) to be shown as its ends rather than as ********.
      const secret = `sk-lf-rotate-${i}-0123456789abcdef0123456789`;
      ids.push(
        (
          await provision.createDestination(
            store,
            {
              workspaceId: workspace.id,
              type: 'langfuse',
              config: { publicKey: `pk-lf-${i}-0123456789`, secretKey: secret },
            },
            new Date(),
          )
        ).id,
      );
    }
    await store.close();

    // Step 1 of the procedure: servers get the new key, and the old one to read with.
    const env = {
      DATABASE_URL: databaseUrl,
      SECRETS_KEY: newKey.toString('base64'),
      SECRETS_KEY_PREVIOUS: oldKey.toString('base64'),
    };
    const server = await startServerProcess(env);
    const statuses: number[] = [];
    const secretsShown: string[] = [];
    let reading = true;
    let readFailure: unknown;
    // What the loop sees is checked once it is over, where a failure is this test's, at once.
    const reads = (async () => {
      for (let i = 0; reading || i < ids.length; i++) {
        const response = await fetch(`${server.url}/api/v1/observability/destinations/${ids[i % ids.length]}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: '{}',
        });
        const body = (await response.json()) as { data?: { config: { secretKey: string } } };
        statuses.push(response.status);
        secretsShown.push(body.data?.config.secretKey ?? '');
      }
    })().catch((err: unknown) => {
      readFailure = err;
    });
    let exitCode: number | null;
    try {
      // Step 2: rotate, while the server reads.
      const rotation = await runEntry('server/cli.ts', ['rotate-secrets-key'], env);
      reading = false;
      await reads;
      expect(rotation.code, rotation.stderr).toBe(0);
      expect(JSON.parse(rotation.stdout)).toEqual({ resealed: 150, current: 0 });
    } finally {
      reading = false;
      await reads;
      exitCode = await server.stop();
    }
    expect(readFailure).toBeUndefined();
    expect(statuses.length).toBeGreaterThanOrEqual(ids.length);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(secretsShown.filter((shown) => !/^sk-l\.\.\./.test(shown))).toEqual([]);
    expect(exitCode).toBe(0);

    // Step 3: the old key can go; everything opens with the new one alone.
    const { db } = await openDatabase(parseDatabaseUrl(databaseUrl));
    const rows = await db.selectFrom('destinations').select('config_sealed').execute();
    await db.destroy();
    const newOnly = createSecretBox(newKey);
    expect(rows).toHaveLength(150);
    for (const row of rows) {
      expect(newOnly.isCurrent(row.config_sealed)).toBe(true);
      expect(JSON.parse(newOnly.open(row.config_sealed)).secretKey).toMatch(
        /^sk-lf-rotate-\d+-0123456789abcdef0123456789$/,
      );
    }
    const again = await runEntry('server/cli.ts', ['rotate-secrets-key'], {
      DATABASE_URL: databaseUrl,
      SECRETS_KEY: newKey.toString('base64'),
    });
    expect(JSON.parse(again.stdout)).toEqual({ resealed: 0, current: 150 });
  }, 60_000);
});
