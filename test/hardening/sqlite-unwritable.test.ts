// The SQLite file that cannot be written: its disk full (PRAGMA max_page_count holds the file at its
// size, as a full disk does) or the file read-only (PRAGMA query_only, what a file the process may
// not write does: tests may run as root, whom chmod does not stop). Writes answer 503 with
// Retry-After at once and change nothing, reads are served, and once the file can be written again
// the writes are, with no restart.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueryDriver } from '../../server/store/prepared.js';
import { call, createTestDestination, createWorkspace, startTestServer, type TestServer } from '../support/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function onFile() {
  let driver: QueryDriver | undefined;
  server = await startTestServer({
    databaseUrl: `sqlite:${join(mkdtempSync(join(tmpdir(), 'sqlite-unwritable-')), 'api.db')}`,
    // The server's own connection: a PRAGMA holds for the connection it runs on.
    databaseOptions: { wrapDriver: (own) => (driver = own) },
  });
  const workspace = await createWorkspace(server.store, server.clock.now());
  const path = await createTestDestination(server, workspace);
  const pragma = async (text: string) =>
    (
      await (driver as QueryDriver).run<Record<string, number>>({
        name: 'pragma',
        sql: `PRAGMA ${text}`,
        parameters: [],
      })
    )[0];
  const patch = (body: unknown) => call(server as TestServer, 'PATCH', path, { key: workspace.managementKey, body });
  const getKey = () =>
    call(server as TestServer, 'GET', `/api/v1/keys/${workspace.standardKeyHash}`, { key: workspace.managementKey });
  return { pragma, patch, getKey };
}

/** A body that needs new pages of the file: an allowlist of 1,000 hashes, different each time (64 KB). */
const growing = (i: number) => ({
  api_key_hashes: Array.from({ length: 1000 }, (_, n) => `${String(i).padStart(4, '0')}${String(n).padStart(60, '0')}`),
});

describe('a SQLite file that cannot be written', () => {
  it('with its disk full: writes get 503 with Retry-After within the usual time, reads 200, and writes resume once there is room', async () => {
    const { pragma, patch, getKey } = await onFile();
    expect((await patch({ sampling_rate: 0.25 })).status).toBe(200);
    const pages = (await pragma('page_count'))?.page_count ?? 0;
    await pragma(`max_page_count = ${pages}`);
    // Writes go on while the file's free room lasts; then each is refused, and changes nothing.
    let refused: Awaited<ReturnType<typeof patch>> | undefined;
    let acknowledged = 0.25;
    for (let i = 0; i < 20 && !refused; i++) {
      const started = performance.now();
      const answer = await patch({ ...growing(i), sampling_rate: (i + 1) / 1000 });
      expect(performance.now() - started).toBeLessThan(1000);
      if (answer.status === 200) acknowledged = (i + 1) / 1000;
      else refused = answer;
    }
    expect(refused?.status).toBe(503);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await getKey()).status).toBe(200);
    expect((await patch({})).body.data.sampling_rate).toBe(acknowledged);
    expect(server?.logs.filter((entry) => entry.msg === 'database unavailable').length).toBeGreaterThan(0);

    await pragma(`max_page_count = ${pages * 100}`);
    const after = await patch({ ...growing(999), sampling_rate: 0.75 });
    expect(after.status).toBe(200);
    expect((await patch({})).body.data.sampling_rate).toBe(0.75);
  });

  it('read-only: writes get 503 with Retry-After, reads 200, and writes resume once it can be written', async () => {
    const { pragma, patch, getKey } = await onFile();
    expect((await patch({ sampling_rate: 0.25 })).status).toBe(200);
    await pragma('query_only = ON');
    const started = performance.now();
    const refused = await patch({ sampling_rate: 0.5 });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await getKey()).status).toBe(200);
    await pragma('query_only = OFF');
    expect((await patch({})).body.data.sampling_rate).toBe(0.25);
    expect((await patch({ sampling_rate: 0.75 })).status).toBe(200);
  });
});
