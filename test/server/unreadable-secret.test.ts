// A secret written after the start by another process, under a key this server was not given: the
// start's check (server/secrets-check.ts) could not see it, so its PATCH answers 503 with
// Retry-After in the envelope, logged as what it is, never as a 500.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretBox, secretsKeyId } from '../../server/domain/secrets.js';
import { openStore, type Store } from '../../server/store/store.js';
import { call, createWorkspace, provision, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer | undefined;
let elsewhere: Store | undefined;

afterAll(async () => {
  await elsewhere?.close();
  await server?.close();
});

describe('a stored secret that the server has no key for', () => {
  it('answers its PATCH 503 with Retry-After, logged with the key id it is sealed under', async () => {
    const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'unreadable-secret-')), 'api.db')}`;
    server = await startTestServer({ databaseUrl });
    const workspace = await createWorkspace(server.store, server.clock.now());
    const otherKey = randomBytes(32);
    elsewhere = await openStore(databaseUrl, createSecretBox(otherKey));
    const destination = await provision.createDestination(
      elsewhere,
      { workspaceId: workspace.id, type: 'otel-collector', config: { endpoint: 'https://otel.example.com' } },
      server.clock.now(),
    );

    const response = await call(server, 'PATCH', `/api/v1/observability/destinations/${destination.id}`, {
      key: workspace.managementKey,
      body: { sampling_rate: 0.5 },
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.body).toEqual({
      error: { code: 503, message: 'Service temporarily unavailable; retry later.', metadata: null },
    });
    // Besides the request's own line (`PATCH 503`), one line says what is wrong and what to do.
    const logged = server.logs.filter((entry) => entry.level >= 40 && !('req' in entry));
    expect(logged).toEqual([
      expect.objectContaining({
        level: 50,
        keyId: secretsKeyId(otherKey),
        msg: `a stored secret is sealed under key ${secretsKeyId(otherKey)}, which this server's keys do not open: give it that key (SECRETS_KEY, or SECRETS_KEY_PREVIOUS) and restart it`,
      }),
    ]);
    expect(server.logs.some((entry) => entry.msg === 'unexpected error')).toBe(false);
  });
});
