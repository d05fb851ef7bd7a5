// Row shapes of the database tables. These are storage types: the store turns them into the domain
// models it returns, and no other layer sees them.
import type { ColumnType } from 'kysely';
import type { components } from '../../generated/api.js';
import { DESTINATION_SETTINGS } from '../domain/destination-update.js';

type ApiKey = components['schemas']['ApiKey'];

/** SQLite keeps booleans as 0/1; PostgreSQL has a real boolean. Both read back as one of these. */
export type DbBoolean = ColumnType<boolean | number, boolean, boolean>;

export interface WorkspacesTable {
  id: string;
  name: string;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  hash: string;
  label: string;
  name: string;
  kind: components['schemas']['KeyKind'];
  disabled: DbBoolean;
  spend_limit: number | null;
  limit_reset: ApiKey['limit_reset'];
  include_byok_in_limit: DbBoolean;
  usage_total: number;
  byok_usage_total: number;
  expires_at: string | null;
  creator_user_id: string | null;
  external_user: string | null;
  created_at: string;
  updated_at: string | null;
}

/** One row per key and UTC day: the windows read at most 31 of them, however much usage there is. */
export interface KeyUsageDailyTable {
  key_id: string;
  day: string;
  usage: number;
  byok_usage: number;
}

export interface DestinationsTable {
  id: string;
  workspace_id: string;
  name: string | null;
  type: string;
  enabled: DbBoolean;
  privacy_mode: DbBoolean;
  sampling_rate: number;
  api_key_hashes: string | null;
  filter_rules: string | null;
  broadcast_generation_cost: DbBoolean;
  broadcast_generation_identity: DbBoolean;
  broadcast_generation_request_context: DbBoolean;
  /** The data regions as JSON, in the order the API returns them. */
  regions: string;
  /** The whole config as JSON, encrypted with AES-256-GCM: it holds the secrets. */
  config_sealed: string;
  /** Incremented on every real change; the ETag is derived from it. */
  revision: number;
  created_at: string;
  updated_at: string;
}

export interface PresetsTable {
  id: string;
  workspace_id: string;
  slug: string;
  name: string;
  /** Versions are numbered 1..version_count with no gap, so a page is an index range. */
  version_count: number;
  created_at: string;
}

export interface PresetVersionsTable {
  id: string;
  preset_id: string;
  version: number;
  config: string;
  system_prompt: string | null;
  creator_id: string;
  created_at: string;
  updated_at: string;
}

/** One row: whether the database refuses writes while it moves (store/read-only.ts). */
export interface ServiceStateTable {
  id: number;
  read_only: DbBoolean;
  read_only_since: string | null;
}

/** A copy into this database, a row per table copied (store/copy/). */
export interface CopyProgressTable {
  table_name: string;
  /** The source database, as describeDatabase names it. */
  source: string;
  /** PostgreSQL's bigint comes back as a string. */
  rows_copied: ColumnType<number | string, number, number>;
  last_key: string | null;
  checksum: string;
  done: DbBoolean;
  updated_at: string;
}

/**
 * Every column of a table, by name, checked complete against its row type. Statements name their
 * columns, never `*`: a column that a newer release's expand migration adds then changes the shape
 * of no result, and PostgreSQL keeps the prepared statements of a running release valid.
 */
function allColumns<Table>() {
  return <const Names extends readonly (keyof Table & string)[]>(
    names: Names &
      ([Exclude<keyof Table, Names[number]>] extends [never]
        ? unknown
        : { missing: Exclude<keyof Table, Names[number]> }),
  ): Names => names;
}

export const API_KEY_COLUMNS = allColumns<ApiKeysTable>()([
  'id',
  'workspace_id',
  'hash',
  'label',
  'name',
  'kind',
  'disabled',
  'spend_limit',
  'limit_reset',
  'include_byok_in_limit',
  'usage_total',
  'byok_usage_total',
  'expires_at',
  'creator_user_id',
  'external_user',
  'created_at',
  'updated_at',
]);

// A destination's settings are stored in columns of their own names.
export const DESTINATION_COLUMNS = allColumns<DestinationsTable>()([
  'id',
  'workspace_id',
  'type',
  ...DESTINATION_SETTINGS,
  'regions',
  'config_sealed',
  'revision',
  'created_at',
  'updated_at',
]);

export const WORKSPACE_COLUMNS = allColumns<WorkspacesTable>()(['id', 'name', 'created_at']);

export const PRESET_COLUMNS = allColumns<PresetsTable>()([
  'id',
  'workspace_id',
  'slug',
  'name',
  'version_count',
  'created_at',
]);

export const KEY_USAGE_DAY_COLUMNS = allColumns<KeyUsageDailyTable>()(['key_id', 'day', 'usage', 'byok_usage']);

export const PRESET_VERSION_COLUMNS = allColumns<PresetVersionsTable>()([
  'id',
  'preset_id',
  'version',
  'config',
  'system_prompt',
  'creator_id',
  'created_at',
  'updated_at',
]);

export interface Database {
  workspaces: WorkspacesTable;
  api_keys: ApiKeysTable;
  key_usage_daily: KeyUsageDailyTable;
  destinations: DestinationsTable;
  presets: PresetsTable;
  preset_versions: PresetVersionsTable;
  service_state: ServiceStateTable;
  copy_progress: CopyProgressTable;
}
