// A second, independent test of each rule that only one test used to catch: workspace scoping on
// every resource, the expiry boundary, encryption at rest and log redaction. These go through the
// typed client, on a server and database of their own, and look at the outcome another way than
// the first test does (the unchanged row, the whole database file, the whole serialized log).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../../client/index.js';
import { rawRows, testDatabaseKind } from '../support/database.js';
import { readDestination } from '../support/destinations.js';
import { provision } from '../support/server.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

const START = '2026-11-20T08:00:00.000Z';
const dataDir = mkdtempSync(join(tmpdir(), 'independent-rules-'));
const SECRET_CANARY = 'sk-lf-INDEPENDENT-CANARY-9d41c7';
const ROTATED_CANARY = 'sk-lf-ROTATED-CANARY-2b8e60';

const server = useTestServer({
  now: START,
  ...(testDatabaseKind === 'sqlite' && { databaseUrl: `sqlite:${join(dataDir, 'api.db')}` }),
});
const owner = useWorkspace(server, 'Owner');
const stranger = useWorkspace(server, 'Stranger');
let destinationId: string;

const clientFor = (apiKey: string) => createApiClient({ baseUrl: `${server.baseUrl}/api/v1`, apiKey });

async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
}

beforeAll(async () => {
  const destination = await provision.createDestination(
    server.store,
    {
      workspaceId: owner.id,
      type: 'langfuse',
      name: 'Owned',
      config: { publicKey: 'pk-lf-independent-0001', secretKey: SECRET_CANARY },
    },
    server.clock.now(),
  );
  destinationId = destination.id;
  await provision.addPresetVersion(
    server.store,
    { workspaceId: owner.id, slug: 'owned-preset', config: { model: 'openai/gpt-4o' }, creatorId: 'user_1' },
    server.clock.now(),
  );
});

afterEach(() => {
  server.clock.set(START);
});

afterAll(() => {
  expect(server.serverErrors()).toEqual([]);
});

describe('workspace scoping, through the client, for each resource', () => {
  it("a key of another workspace cannot read this workspace's key", async () => {
    expect(await statusOf(clientFor(stranger.managementKey).getKey(owner.standardKeyHash))).toBe(404);
    expect((await clientFor(owner.managementKey).getKey(owner.standardKeyHash)).name).toBe('Backend');
  });

  it("a key of another workspace cannot change this workspace's destination, and the row stays as it was", async () => {
    const before = await readDestination(server.store, owner.id, destinationId);
    const attempt = clientFor(stranger.managementKey).updateObservabilityDestination(destinationId, {
      name: 'Taken over',
      enabled: false,
    });
    expect(await statusOf(attempt)).toBe(404);
    expect(await readDestination(server.store, owner.id, destinationId)).toEqual(before);
  });

  it("a key of another workspace cannot list this workspace's preset", async () => {
    expect(await statusOf(clientFor(stranger.standardKey).listPresetVersions('owned-preset'))).toBe(404);
    expect((await clientFor(owner.standardKey).listPresetVersions('owned-preset')).data).toHaveLength(1);
  });
});

describe('the expiry boundary, through the client', () => {
  it('a key expiring one millisecond from now works; at its expiry instant it no longer does', async () => {
    const expiresAt = '2026-11-20T08:00:00.001Z';
    const key = await provision.createKey(
      server.store,
      { workspaceId: owner.id, name: 'Short-lived', kind: 'standard', expiresAt },
      server.clock.now(),
    );
    const client = clientFor(key.rawKey);
    expect(await statusOf(client.listPresetVersions('owned-preset'))).toBe(200);
    server.clock.set(expiresAt);
    expect(await statusOf(client.listPresetVersions('owned-preset'))).toBe(401);
  });
});

describe('encryption at rest and log redaction, after a session through the client', () => {
  it('leaves no secret in clear in the database, nor any key or secret in the log', async () => {
    const management = clientFor(owner.managementKey);
    await management.updateObservabilityDestination(destinationId, { config: { secretKey: ROTATED_CANARY } });
    await management.getKey(owner.standardKeyHash);
    expect(await statusOf(clientFor(stranger.managementKey).getKey(owner.standardKeyHash))).toBe(404);

    const log = JSON.stringify(server.logs);
    expect(server.logs.length).toBeGreaterThan(0);
    for (const secret of [owner.managementKey, stranger.managementKey, SECRET_CANARY, ROTATED_CANARY]) {
      expect(log).not.toContain(secret);
    }

    const atRest =
      testDatabaseKind === 'sqlite'
        ? readdirSync(dataDir).map((file) => readFileSync(join(dataDir, file)).toString('latin1'))
        : [JSON.stringify(await rawRows(server.databaseUrl, 'destinations'))];
    expect(atRest.join('')).toContain(destinationId);
    for (const bytes of atRest) {
      expect(bytes).not.toContain('INDEPENDENT-CANARY');
      expect(bytes).not.toContain('ROTATED-CANARY');
    }
  });
});
