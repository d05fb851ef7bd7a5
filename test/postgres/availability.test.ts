import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresAdminUrl } from '../support/database.js';

describe.skipIf(!postgresAdminUrl)('PostgreSQL suites (skipped: TEST_POSTGRES_URL is not set)', () => {
  it('reaches the PostgreSQL server of TEST_POSTGRES_URL', async () => {
    const client = new pg.Client({ connectionString: postgresAdminUrl });
    await client.connect();
    const { rows } = await client.query<{ ok: number }>('SELECT 1 AS ok');
    await client.end();
    expect(rows).toEqual([{ ok: 1 }]);
  });
});
