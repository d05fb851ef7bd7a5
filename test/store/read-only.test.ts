// The read-only switch of a database that moves: reads are answered as usual, and every write (the
// API's PATCH, record-usage, provisioning, a write of another connection) is refused until it is
// turned off; the API says 503 with Retry-After. On PostgreSQL, turning it on waits for older
// transactions: test/postgres/read-only-switch.test.ts.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { READ_ONLY_RETRY_AFTER_SECONDS } from '../../server/http/errors.js';
import { call, createTestDestination, provision } from '../support/server.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

const server = useTestServer();
const workspace = useWorkspace(server);

afterEach(async () => {
  await server.store.serviceState.setReadOnly(false, server.clock.now());
});

afterAll(() => {
  expect(server.serverErrors()).toEqual([]);
});

const readKey = () =>
  call(server, 'GET', `/api/v1/keys/${workspace.standardKeyHash}`, { key: workspace.managementKey });
const patch = (path: string, name: string) =>
  call(server, 'PATCH', path, { key: workspace.managementKey, body: { name } });

describe('a read-only database', () => {
  it('starts writable, and says when it was turned on and that it is off again', async () => {
    expect(await server.store.serviceState.readOnly()).toEqual({ read_only: false, since: null });
    const at = new Date('2026-11-18T12:30:00.000Z');
    expect(await server.store.serviceState.setReadOnly(true, at)).toEqual({
      read_only: true,
      since: at.toISOString(),
    });
    // Turned on again, it keeps the time it was first turned on.
    expect(await server.store.serviceState.setReadOnly(true, new Date('2026-11-18T13:00:00.000Z'))).toEqual({
      read_only: true,
      since: at.toISOString(),
    });
    expect(await server.store.serviceState.setReadOnly(false, at)).toEqual({ read_only: false, since: null });
  });

  it('answers reads, refuses the PATCH with 503 and Retry-After, and loses nothing once writable again', async () => {
    const path = await createTestDestination(server, workspace);
    expect((await patch(path, 'Before')).status).toBe(200);
    const keyBefore = await readKey();
    await server.store.serviceState.setReadOnly(true, server.clock.now());

    const key = await readKey();
    expect(key.status).toBe(200);
    expect(key.body).toEqual(keyBefore.body);
    expect(key.headers.get('etag')).toBe(keyBefore.headers.get('etag'));
    const refused = await patch(path, 'During');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe(String(READ_ONLY_RETRY_AFTER_SECONDS));
    expect(refused.body).toMatchObject({ error: { message: expect.stringMatching(/read-only/) } });
    const empty = await call(server, 'PATCH', path, { key: workspace.managementKey, body: {} });
    expect(empty.status).toBe(200);
    expect(empty.body.data.name).toBe('Before');
    expect(
      server.logs.filter((entry) => entry.msg === 'write refused: the database is read-only').length,
    ).toBeGreaterThan(0);

    await server.store.serviceState.setReadOnly(false, server.clock.now());
    const after = await patch(path, 'After');
    expect(after.status).toBe(200);
    expect(after.body.data.name).toBe('After');
  });

  it('refuses every write of the store: usage, keys, workspaces, destinations and preset versions', async () => {
    const created = await provision.createKey(
      server.store,
      { workspaceId: workspace.id, name: 'Usage', kind: 'standard' },
      server.clock.now(),
    );
    const { id: keyId } = (await server.store.keys.findByHash(created.hash)) ?? { id: '' };
    await server.store.serviceState.setReadOnly(true, server.clock.now());
    const now = server.clock.now();
    const writes: [string, () => Promise<unknown>][] = [
      ['usage', () => server.store.keys.recordUsage(keyId, now, { usage: 1, byok_usage: 0 })],
      [
        'a key',
        () => provision.createKey(server.store, { workspaceId: workspace.id, name: 'K', kind: 'standard' }, now),
      ],
      ['a workspace', () => server.store.workspaces.create('Another', now)],
      ['a destination', () => createTestDestination(server, workspace)],
      [
        'a preset version',
        () =>
          provision.addPresetVersion(
            server.store,
            { workspaceId: workspace.id, slug: 'frozen', config: { model: 'm' }, creatorId: 'u' },
            now,
          ),
      ],
    ];
    for (const [what, write] of writes)
      await expect(write(), what).rejects.toSatisfy((err) => isRefusal(err), `${what} is refused`);
    await server.store.serviceState.setReadOnly(false, now);
    await expect(server.store.keys.recordUsage(keyId, now, { usage: 1, byok_usage: 0 })).resolves.toBeUndefined();
  });
});

const isRefusal = (err: unknown) => /read-only while it moves/.test(String((err as Error).message));
