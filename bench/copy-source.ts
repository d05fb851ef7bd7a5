// The database copy-database's benchmark copies: a SQLite file of this release's schema with
// `keys` keys, ten usage days each, and presets of a hundred versions each, as many versions as
// usage days; a destination with a sealed secret for every hundred keys. Written straight into
// the file in large transactions, which the store's own provisioning would take hours to do.
import { randomUUID } from 'node:crypto';
import { createSecretBox } from '../server/domain/secrets.js';
import { openSqliteConnection } from '../server/store/sqlite-connection.js';
import { openStore } from '../server/store/store.js';

export interface SourceSize {
  keys: number;
  usageDays: number;
  versions: number;
}

export const sizeOf = (keys: number): SourceSize => ({ keys, usageDays: keys * 10, versions: keys * 10 });

const STAMP = '2026-11-18T12:00:00.000Z';

export async function writeCopySource(file: string, size: SourceSize, secretsKey: Buffer): Promise<void> {
  const secrets = createSecretBox(secretsKey);
  await (await openStore(`sqlite:${file}`, secrets)).close();
  const db = await openSqliteConnection(file);
  const run = (text: string) => {
    const statement = db.prepare(text);
    return (values: unknown[]) => statement.run(values);
  };
  const insertWorkspace = run('insert into workspaces (id, name, created_at) values (?, ?, ?)');
  const insertKey = run(`insert into api_keys (id, workspace_id, hash, label, name, kind, disabled, spend_limit,
    limit_reset, include_byok_in_limit, usage_total, byok_usage_total, expires_at, creator_user_id, external_user,
    created_at, updated_at) values (?, ?, ?, ?, ?, 'standard', 0, ?, 'monthly', 1, ?, ?, null, ?, null, ?, ?)`);
  const insertDay = run('insert into key_usage_daily (key_id, day, usage, byok_usage) values (?, ?, ?, ?)');
  const insertDestination = run(`insert into destinations (id, workspace_id, name, type, enabled, privacy_mode,
    sampling_rate, api_key_hashes, filter_rules, broadcast_generation_cost, broadcast_generation_identity,
    broadcast_generation_request_context, regions, config_sealed, revision, created_at, updated_at)
    values (?, ?, ?, 'otel-collector', 1, 0, 0.5, null, null, 0, 1, 0, '["global"]', ?, 1, ?, ?)`);
  const insertPreset = run(
    'insert into presets (id, workspace_id, slug, name, version_count, created_at) values (?, ?, ?, ?, 100, ?)',
  );
  const insertVersion = run(`insert into preset_versions (id, preset_id, version, config, system_prompt, creator_id,
    created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)`);
  const inTransaction = (write: () => void) => {
    db.exec('BEGIN');
    write();
    db.exec('COMMIT');
  };
  const workspaces = Math.max(1, Math.ceil(size.keys / 100));
  const workspaceIds = Array.from({ length: workspaces }, () => randomUUID());
  inTransaction(() => {
    for (const [w, id] of workspaceIds.entries()) {
      insertWorkspace([id, `Workspace ${w}`, STAMP]);
      insertDestination([
        randomUUID(),
        id,
        `Collector ${w}`,
        secrets.seal(JSON.stringify({ endpoint: `https://otel-${w}.example.com`, headers: { authorization: 'x' } })),
        STAMP,
        STAMP,
      ]);
    }
  });
  const daysPerKey = Math.ceil(size.usageDays / size.keys);
  for (let start = 0; start < size.keys; start += 10_000)
    inTransaction(() => {
      for (let k = start; k < Math.min(size.keys, start + 10_000); k++) {
        const id = randomUUID();
        const hash = `${k.toString(16).padStart(16, '0')}${'ab'.repeat(24)}`;
        insertKey([
          id,
          workspaceIds[k % workspaces],
          hash,
          `sk-or-v1-${hash.slice(0, 3)}...`,
          `Key ${k}`,
          k % 50,
          k / 3,
          k / 7,
          `user_${k % 97}`,
          STAMP,
          STAMP,
        ]);
        for (let d = 0; d < daysPerKey; d++)
          insertDay([
            id,
            `2026-${String(1 + (d % 12)).padStart(2, '0')}-${String(1 + d).padStart(2, '0')}`,
            d * 0.37,
            d * 0.01,
          ]);
      }
    });
  const presets = Math.ceil(size.versions / 100);
  for (let start = 0; start < presets; start += 1000)
    inTransaction(() => {
      for (let p = start; p < Math.min(presets, start + 1000); p++) {
        const id = randomUUID();
        insertPreset([id, workspaceIds[p % workspaces], `preset-${p}`, `Preset ${p}`, STAMP]);
        for (let v = 1; v <= 100; v++)
          insertVersion([
            randomUUID(),
            id,
            v,
            JSON.stringify({ model: 'openai/gpt-4o-mini', temperature: (v % 10) / 10, max_tokens: 256 + v }),
            v % 3 === 0 ? null : `You are preset ${p}, version ${v}. Answer briefly,\tin plain words.`,
            `user_${v % 13}`,
            STAMP,
            STAMP,
          ]);
      }
    });
  db.close();
}
