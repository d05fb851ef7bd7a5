// Large data sets for the flat-cost figures, written in multi-row statements: a preset with
// `count` versions (numbered 1..count, as the store numbers them) and a key with `count` usage
// records, spread over the last three years and summed into the store's daily buckets exactly as
// recordUsage would sum them one by one.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { openDatabase, parseDatabaseUrl } from '../../server/store/database.js';

const CHUNK = 500;

export async function bulkPresetVersions(
  databaseUrl: string,
  workspaceId: string,
  slug: string,
  count: number,
  now: Date,
): Promise<void> {
  const { db } = await openDatabase(parseDatabaseUrl(databaseUrl));
  const at = now.toISOString();
  const presetId = randomUUID();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('presets')
      .values({ id: presetId, workspace_id: workspaceId, slug, name: slug, version_count: count, created_at: at })
      .execute();
    for (let first = 1; first <= count; first += CHUNK) {
      const rows = Array.from({ length: Math.min(CHUNK, count - first + 1) }, (_, i) => ({
        id: randomUUID(),
        preset_id: presetId,
        version: first + i,
        config: '{"model":"openai/gpt-4o-mini","temperature":0.2}',
        system_prompt: `Version ${first + i}`,
        creator_id: 'user_bench',
        created_at: at,
        updated_at: at,
      }));
      await trx.insertInto('preset_versions').values(rows).execute();
    }
  });
  await db.destroy();
}

export async function bulkUsage(databaseUrl: string, keyId: string, records: number, now: Date): Promise<void> {
  const days = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < records; i++) {
    const day = new Date(now.getTime() - (i % (3 * 365)) * 86_400_000).toISOString().slice(0, 10);
    const amount = ((i % 97) + 1) / 1000;
    days.set(day, (days.get(day) ?? 0) + amount);
    total += amount;
  }
  const { db } = await openDatabase(parseDatabaseUrl(databaseUrl));
  await db.transaction().execute(async (trx) => {
    const rows = [...days].map(([day, usage]) => ({ key_id: keyId, day, usage, byok_usage: 0 }));
    for (let first = 0; first < rows.length; first += CHUNK)
      await trx
        .insertInto('key_usage_daily')
        .values(rows.slice(first, first + CHUNK))
        .execute();
    await trx
      .updateTable('api_keys')
      .set({ usage_total: sql`usage_total + ${total}` })
      .where('id', '=', keyId)
      .execute();
  });
  await db.destroy();
}
