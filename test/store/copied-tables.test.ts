// A row as either database gives it, and the checksum of a table's rows: the same for SQLite's 0 and
// 1 as for PostgreSQL's booleans, the same under two secrets keys, whatever the order of the rows
// and wherever a resumed copy took the sum up again; and different once a row is changed.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { COPIED_TABLES, type CopiedTable, rowValues, tableChecksum } from '../../server/store/copy/copied-tables.js';

const tableNamed = (name: string): CopiedTable => {
  const table = COPIED_TABLES.find((known) => known.name === name);
  if (!table) throw new Error(`no table ${name}`);
  return table;
};
const keys = tableNamed('api_keys');
const destinations = tableNamed('destinations');

const key = (id: string, disabled: boolean | number, byok: boolean | number) => ({
  id,
  workspace_id: 'w',
  hash: `h${id}`,
  label: 'sk-or-v1-abc...',
  name: `Key ${id}`,
  kind: 'standard',
  disabled,
  spend_limit: 10.5,
  limit_reset: 'daily',
  include_byok_in_limit: byok,
  usage_total: 1 / 3,
  byok_usage_total: 0,
  expires_at: null,
  creator_user_id: null,
  external_user: 'u',
  created_at: '2026-11-18T12:00:00.000Z',
  updated_at: null,
});

describe('a row as either database gives it', () => {
  it("holds its columns in the table's order, SQLite's 0 and 1 as the booleans PostgreSQL gives", () => {
    const fromSqlite = rowValues(keys, key('k1', 1, 0));
    expect(fromSqlite).toEqual(rowValues(keys, key('k1', true, false)));
    expect(fromSqlite[keys.columns.indexOf('disabled')]).toBe(true);
    expect(fromSqlite[keys.columns.indexOf('include_byok_in_limit')]).toBe(false);
    expect(fromSqlite[keys.columns.indexOf('spend_limit')]).toBe(10.5);
    expect(fromSqlite).toHaveLength(keys.columns.length);
  });

  it('names every boolean column of the tables that have them', () => {
    expect(Object.fromEntries(COPIED_TABLES.map((table) => [table.name, table.booleans]))).toEqual({
      workspaces: [],
      api_keys: ['disabled', 'include_byok_in_limit'],
      destinations: [
        'enabled',
        'privacy_mode',
        'broadcast_generation_cost',
        'broadcast_generation_identity',
        'broadcast_generation_request_context',
      ],
      presets: [],
      preset_versions: [],
      key_usage_daily: [],
    });
  });
});

describe('the checksum of a table', () => {
  const secrets = createSecretBox(randomBytes(32));
  const rows = [key('a', 0, 1), key('b', 1, 0), key('c', 0, 0)].map((row) => rowValues(keys, row));

  const sumOf = async (values: unknown[][], from?: string) => {
    const checksum = await tableChecksum(keys, secrets, from);
    for (const row of values) checksum.add(row);
    return checksum.toString();
  };

  it('is 16 hex digits, zero for no rows, the same in any order, and different for a changed row', async () => {
    expect(await sumOf([])).toBe('0'.repeat(16));
    const sum = await sumOf(rows);
    expect(sum).toMatch(/^[0-9a-f]{16}$/);
    expect(await sumOf([...rows].reverse())).toBe(sum);
    const changed = rows.map((row) => [...row]);
    changed[1]?.splice(keys.columns.indexOf('usage_total'), 1, 1 / 3 + 1e-9);
    expect(await sumOf(changed)).not.toBe(sum);
    expect(await sumOf(rows.slice(0, 2))).not.toBe(sum);
  });

  it('goes on from where a resumed copy left it', async () => {
    const [first, second, third] = rows;
    const earlier = await sumOf([first ?? []]);
    expect(await sumOf([second ?? [], third ?? []], earlier)).toBe(await sumOf(rows));
  });

  it('sums a destination by its secrets opened, so that two keys give the same sum', async () => {
    const other = createSecretBox(randomBytes(32));
    const destination = (box: typeof secrets, config = '{"endpoint":"https://otel.example.com"}') =>
      destinations.columns.map((column) =>
        column === 'config_sealed' ? box.seal(config) : column === 'enabled' || null,
      );
    const under = async (box: typeof secrets, config?: string) => {
      const checksum = await tableChecksum(destinations, box);
      checksum.add(destination(box, config));
      return checksum.toString();
    };
    expect(await under(secrets)).toBe(await under(other));
    expect(await under(secrets, '{}')).not.toBe(await under(secrets));
  });
});
