// What copy-database copies: the tables of data in an order that keeps every foreign key (the
// narrowest last, since its check is the one that nothing overlaps), each
// with this release's columns and its primary key, by which it is read in batches; and the checksum
// of a table's rows as the API reads them, the same whichever database holds them.
import xxhash from 'xxhash-wasm';
import type { SecretBox } from '../../domain/secrets.js';
import {
  API_KEY_COLUMNS,
  DESTINATION_COLUMNS,
  KEY_USAGE_DAY_COLUMNS,
  PRESET_COLUMNS,
  PRESET_VERSION_COLUMNS,
  WORKSPACE_COLUMNS,
} from '../tables.js';

export interface CopiedTable {
  name: 'workspaces' | 'api_keys' | 'key_usage_daily' | 'destinations' | 'presets' | 'preset_versions';
  columns: readonly string[];
  /** The primary key's columns: the order of the batches, and where a resumed copy goes on. */
  key: readonly string[];
  /** Columns SQLite keeps as 0 and 1 and PostgreSQL as booleans. */
  booleans: readonly string[];
  /** The column of sealed secrets, which each database keeps under its own key. */
  sealed?: string;
}

export const COPIED_TABLES: readonly CopiedTable[] = [
  { name: 'workspaces', columns: WORKSPACE_COLUMNS, key: ['id'], booleans: [] },
  { name: 'api_keys', columns: API_KEY_COLUMNS, key: ['id'], booleans: ['disabled', 'include_byok_in_limit'] },
  {
    name: 'destinations',
    columns: DESTINATION_COLUMNS,
    key: ['id'],
    booleans: [
      'enabled',
      'privacy_mode',
      'broadcast_generation_cost',
      'broadcast_generation_identity',
      'broadcast_generation_request_context',
    ],
    sealed: 'config_sealed',
  },
  { name: 'presets', columns: PRESET_COLUMNS, key: ['id'], booleans: [] },
  { name: 'preset_versions', columns: PRESET_VERSION_COLUMNS, key: ['id'], booleans: [] },
  { name: 'key_usage_daily', columns: KEY_USAGE_DAY_COLUMNS, key: ['key_id', 'day'], booleans: [] },
];

export type Row = Record<string, unknown>;

/** A row's values in the table's column order, booleans as booleans, whichever database it came from. */
export function rowValues(table: CopiedTable, row: Row): unknown[] {
  return table.columns.map((column) => (table.booleans.includes(column) ? Boolean(row[column]) : row[column]));
}

/** The key of a row, where the next batch begins. */
export function keyOf(table: CopiedTable, row: Row): unknown[] {
  return table.key.map((column) => row[column]);
}

/** XXH32 of a text under two seeds: 64 bits in two lanes. */
const hasher = xxhash();
const SEEDS = [0x9e3779b9, 0x85ebca6b] as const;

/**
 * A checksum of a table's rows that does not depend on their order or on how they were batched
 * (each database reads in its own order): over every row as the API reads it (its secrets opened),
 * the sum of the rows' XXH32 in one lane and their XOR under another seed in the other, a primary
 * key keeping any row from being there twice. Not proof against someone who forges rows; a check
 * that none was lost, added or changed on the way.
 */
export interface TableChecksum {
  /** A row's values as rowValues gives them (its secrets still sealed). */
  add(values: readonly unknown[]): void;
  toString(): string;
}

export async function tableChecksum(table: CopiedTable, secrets: SecretBox, from?: string): Promise<TableChecksum> {
  const { h32 } = await hasher;
  let sum = from ? Number.parseInt(from.slice(0, 8), 16) : 0;
  let xor = from ? Number.parseInt(from.slice(8, 16), 16) : 0;
  const at = table.sealed === undefined ? -1 : table.columns.indexOf(table.sealed);
  return {
    add(values) {
      const opened =
        at < 0 ? values : values.map((value, index) => (index === at ? secrets.open(String(value)) : value));
      const text = JSON.stringify(opened);
      sum = (sum + h32(text, SEEDS[0])) >>> 0;
      xor = (xor ^ h32(text, SEEDS[1])) >>> 0;
    },
    toString: () => `${sum.toString(16).padStart(8, '0')}${xor.toString(16).padStart(8, '0')}`,
  };
}
