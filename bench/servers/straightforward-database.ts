// The straightforward baseline's database: the seed's SQLite file, with the server's own settings,
// and the statements its three operations run, prepared once (better-sqlite3, as such code would).
import Database from 'better-sqlite3';

export function openStraightforwardDatabase(filename: string) {
  const db = new Database(filename);
  // The server's own settings, so that a PATCH compares code, not durability.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');

  const sql = {
    keyByHash: db.prepare<
      [string],
      { id: string; workspace_id: string; kind: string; disabled: number; expires_at: string | null }
    >('SELECT id, workspace_id, kind, disabled, expires_at FROM api_keys WHERE hash = ?'),
    keyInWorkspace: db.prepare<[string, string], Record<string, string | number | null>>(
      'SELECT * FROM api_keys WHERE hash = ? AND workspace_id = ?',
    ),
    usage: db.prepare<
      { keyId: string; from: string; day: string; week: string; month: string },
      Record<string, number>
    >(
      `SELECT
         coalesce(sum(CASE WHEN day >= @day THEN usage END), 0) AS usage_daily,
         coalesce(sum(CASE WHEN day >= @week THEN usage END), 0) AS usage_weekly,
         coalesce(sum(CASE WHEN day >= @month THEN usage END), 0) AS usage_monthly,
         coalesce(sum(CASE WHEN day >= @day THEN byok_usage END), 0) AS byok_usage_daily,
         coalesce(sum(CASE WHEN day >= @week THEN byok_usage END), 0) AS byok_usage_weekly,
         coalesce(sum(CASE WHEN day >= @month THEN byok_usage END), 0) AS byok_usage_monthly
       FROM key_usage_daily WHERE key_id = @keyId AND day >= @from AND day <= @day`,
    ),
    destination: db.prepare<[string, string], Record<string, string | number | null>>(
      'SELECT * FROM destinations WHERE id = ? AND workspace_id = ?',
    ),
    writeDestination: db.prepare(
      `UPDATE destinations SET name = @name, enabled = @enabled, privacy_mode = @privacy_mode,
         sampling_rate = @sampling_rate, api_key_hashes = @api_key_hashes, filter_rules = @filter_rules,
         broadcast_generation_cost = @broadcast_generation_cost,
         broadcast_generation_identity = @broadcast_generation_identity,
         broadcast_generation_request_context = @broadcast_generation_request_context, regions = @regions,
         config_sealed = @config_sealed, revision = @revision, updated_at = @updated_at
       WHERE id = @id`,
    ),
    preset: db.prepare<[string, string], { id: string }>('SELECT id FROM presets WHERE workspace_id = ? AND slug = ?'),
    versionCount: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM preset_versions WHERE preset_id = ?'),
    versions: db.prepare<[string, number, number], Record<string, string | number | null>>(
      `SELECT id, preset_id, version, config, system_prompt, creator_id, created_at, updated_at
       FROM preset_versions WHERE preset_id = ? ORDER BY version LIMIT ? OFFSET ?`,
    ),
  };
  return { db, sql };
}
