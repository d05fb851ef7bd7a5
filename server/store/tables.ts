// Row shapes of the database tables. These are storage types: the store turns them into the domain
// models it returns, and no other layer sees them.
import type { ColumnType } from 'kysely';
import type { components } from '../../generated/api.js';

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

export interface Database {
  workspaces: WorkspacesTable;
  api_keys: ApiKeysTable;
  key_usage_daily: KeyUsageDailyTable;
  destinations: DestinationsTable;
  presets: PresetsTable;
  preset_versions: PresetVersionsTable;
}
