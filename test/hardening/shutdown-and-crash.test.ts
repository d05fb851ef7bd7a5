// SIGTERM drains: every accepted request gets its full answer and the process exits 0 within
// 10 s. SIGKILL loses nothing acknowledged: after a restart on the same database, every PATCH
// that got a 200 is there.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { openStore } from '../../server/store/store.js';
import { readDestination } from '../support/destinations.js';
import { startServerProcess } from '../support/process.js';
import { provision } from '../support/server.js';

async function prepare(destinations: number) {
  const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'lifecycle-')), 'api.db')}`;
  const secretsKey = randomBytes(32).toString('base64');
  const store = await openStore(databaseUrl, createSecretBox(Buffer.from(secretsKey, 'base64')));
  const workspace = await store.workspaces.create('Lifecycle', new Date());
  const apiKey = (
    await provision.createKey(store, { workspaceId: workspace.id, name: 'Admin', kind: 'management' }, new Date())
  ).rawKey;
  const ids: string[] = [];
  for (let i = 0; i < destinations; i++) {
    ids.push(
      (
        await provision.createDestination(
          store,
          {
            workspaceId: workspace.id,
            type: 'webhook',
            name: `before-${i}`,
            config: { url: 'https://hooks.example.com' },
          },
          new Date(),
        )
      ).id,
    );
  }
  await store.close();
  return {
    env: { DATABASE_URL: databaseUrl, SECRETS_KEY: secretsKey },
    apiKey,
    ids,
    databaseUrl,
    secretsKey,
    workspaceId: workspace.id,
  };
}

type Outcome =
  | { kind: 'answered'; status: number; body: string }
  | { kind: 'refused' }
  | { kind: 'broken'; message: string };

/**
 * Clients keep their connections alive, as real ones do: a connection the server has accepted
 * gets its answers (the last with `Connection: close`), and a new one after the listener closed
 * is refused. (A connection still in the kernel's accept queue when the listener closes is reset
 * by the kernel: it was never accepted, and no server can answer it.)
 */
async function patchName(url: string, apiKey: string, id: string, name: string): Promise<Outcome> {
  try {
    const response = await fetch(`${url}/api/v1/observability/destinations/${id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    return { kind: 'answered', status: response.status, body: await response.text() };
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code;
    return code === 'ECONNREFUSED'
      ? { kind: 'refused' }
      : { kind: 'broken', message: `${code ?? ''} ${(err as Error).message}` };
  }
}

describe('process lifecycle', () => {
  it('drains on SIGTERM: every accepted request is answered in full, then exit 0 within 10 s', async () => {
    const { env, apiKey, ids } = await prepare(60);
    const server = await startServerProcess(env);
    const outcomes: Outcome[] = [];
    let stopped: Promise<number | null> | undefined;
    let stoppedAt = 0;
    await Promise.all(
      Array.from({ length: 6 }, async (_, worker) => {
        for (let i = worker; i < 300; i += 6) {
          if (outcomes.length === 100 && !stopped) {
            stoppedAt = Date.now();
            stopped = server.stop();
          }
          outcomes.push(await patchName(server.url, apiKey, ids[i % ids.length] ?? '', `burst-${i}`));
        }
      }),
    );
    const code = await stopped;
    expect(code).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    const answered = outcomes.filter((o): o is Extract<Outcome, { kind: 'answered' }> => o.kind === 'answered');
    expect(answered.length).toBeGreaterThanOrEqual(100);
    for (const answer of answered) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).data.name).toMatch(/^burst-\d+$/);
    }
    expect(outcomes.filter((o) => o.kind === 'broken')).toEqual([]);
    console.log(
      `SIGTERM during a burst: ${answered.length} answered in full, ${outcomes.length - answered.length} refused after the listener closed, exit code ${code}`,
    );
  }, 60_000);

  it('loses no acknowledged PATCH when killed with SIGKILL mid-storm', async () => {
    const { env, apiKey, ids, databaseUrl, secretsKey, workspaceId } = await prepare(200);
    const server = await startServerProcess(env);
    const acknowledged: string[] = [];
    let killed = false;
    await Promise.all(
      Array.from({ length: 10 }, async (_, worker) => {
        for (let i = worker; i < ids.length; i += 10) {
          if (acknowledged.length >= 80 && !killed) {
            killed = true;
            server.child.kill('SIGKILL');
          }
          const outcome = await patchName(server.url, apiKey, ids[i] ?? '', `after-${i}`);
          if (outcome.kind === 'answered' && outcome.status === 200) acknowledged.push(ids[i] ?? '');
        }
      }),
    );
    expect(killed).toBe(true);
    await new Promise((resolve) =>
      server.child.exitCode !== null || server.child.signalCode !== null
        ? resolve(null)
        : server.child.on('close', resolve),
    );

    const restarted = await startServerProcess(env);
    expect(await restarted.stop()).toBe(0);
    const store = await openStore(databaseUrl, createSecretBox(Buffer.from(secretsKey, 'base64')));
    try {
      for (const id of acknowledged) {
        const index = ids.indexOf(id);
        expect((await readDestination(store, workspaceId, id))?.state.name).toBe(`after-${index}`);
      }
    } finally {
      await store.close();
    }
    console.log(
      `SIGKILL mid-storm: ${acknowledged.length} PATCHes acknowledged before the kill, all found after the restart`,
    );
  }, 60_000);
});
