// What copy-database copies: the tables of data in an order that keeps every foreign key, each
// with this release's columns and its primary key, by which it is read in batches; and the checksum
// of a table's rows as the API reads them, the same whichever database holds them.
import { createHash } from 'node:crypto';
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
  { name: 'key_usage_daily', columns: KEY_USAGE_DAY_COLUMNS, key: ['key_id', 'day'], booleans: [] },
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

const EMPTY = '0'.repeat(64);

/**
 * A checksum of a table's rows that does not depend on their order or on how they were batched:
 * the XOR of the SHA-256 of each row as the API reads it (its secrets opened), which a primary key
 * keeps from holding the same row twice.
 */
export class TableChecksum {
  private readonly sum: Buffer;

  constructor(
    private readonly table: CopiedTable,
    private readonly secrets: SecretBox,
    from = EMPTY,
  ) {
    this.sum = Buffer.from(from, 'hex');
  }

  add(row: Row): void {
    const values = rowValues(this.table, row);
    const { sealed } = this.table;
    if (sealed !== undefined) {
      const at = this.table.columns.indexOf(sealed);
      values[at] = this.secrets.open(String(values[at]));
    }
    const digest = createHash('sha256').update(JSON.stringify(values)).digest();
    for (let i = 0; i < digest.length; i++) this.sum[i] = (this.sum[i] ?? 0) ^ (digest[i] ?? 0);
  }

  toString(): string {
    return this.sum.toString('hex');
  }
}
