// Turning the read-only switch on waits for the transactions begun before it, so that no write
// acknowledged before it lands after it; one that stays open is named, in one line, once the
// switch has waited its bound.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { describeFailure } from '../../server/failure.js';
import { DatabaseRefusal } from '../../server/store/refusal.js';
import { call, createTestDestination } from '../support/server.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

const server = useTestServer();
const workspace = useWorkspace(server);

afterEach(async () => {
  await server.store.serviceState.setReadOnly(false, server.clock.now());
});

describe('turning it on while another connection writes', () => {
  const other = () => new pg.Client({ connectionString: server.databaseUrl });

  it('returns only once a transaction that wrote before it has committed, and that write is kept', async () => {
    const path = await createTestDestination(server, workspace);
    const id = path.split('/').pop() ?? '';
    const writer = other();
    await writer.connect();
    try {
      await writer.query('begin');
      await writer.query('update destinations set name = $1 where id = $2', ['Written before', id]);
      let returned = false;
      const switching = server.store.serviceState.setReadOnly(true, server.clock.now()).then(() => {
        returned = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(returned).toBe(false);
      await writer.query('commit');
      await switching;
      const read = await call(server, 'PATCH', path, { key: workspace.managementKey, body: {} });
      expect(read.body.data.name).toBe('Written before');
      // A write begun after it is refused.
      await expect(writer.query('update destinations set name = $1 where id = $2', ['After', id])).rejects.toThrow(
        /read-only while it moves/,
      );
    } finally {
      await writer.end();
    }
  });

  it('says in one line that an older transaction is still open once it has waited its bound', async () => {
    const holder = other();
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from workspaces limit 1');
      const refusal = await server.store.serviceState.setReadOnly(true, server.clock.now(), 200).catch((err) => err);
      expect(refusal).toBeInstanceOf(DatabaseRefusal);
      expect(describeFailure(refusal)).toMatch(
        /^The database is read-only now, but 1 transaction\(s\) begun before it are still open after 0\.2 s \(the oldest: process \d+, since [^)]+\); a write among them may still commit\. End them \(pg_terminate_backend\), then run read-only again before you copy\.$/,
      );
      expect((await server.store.serviceState.readOnly()).read_only).toBe(true);
    } finally {
      await holder.end();
    }
  });
});
