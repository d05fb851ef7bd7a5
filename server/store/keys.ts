import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { utcDay, type UsageWindows } from '../domain/time.js';
import { preparedQuery, type QueryDriver } from './prepared.js';
import type { ApiKeysTable, Database } from './schema.js';

export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewApiKey = Omit<Insertable<ApiKeysTable>, 'id' | 'usage_total' | 'byok_usage_total' | 'created_at' | 'updated_at'>;

export interface KeyWindowUsage {
  usage_daily: number;
  usage_weekly: number;
  usage_monthly: number;
  byok_usage_daily: number;
  byok_usage_weekly: number;
  byok_usage_monthly: number;
}

export function keyStore(db: Kysely<Database>, driver: QueryDriver) {
  const byHash = preparedQuery(driver, (a: { hash: string }) => db.selectFrom('api_keys').selectAll().where('hash', '=', a.hash));
  const inWorkspace = preparedQuery(driver, (a: { workspaceId: string; hash: string }) =>
    db.selectFrom('api_keys').selectAll().where('hash', '=', a.hash).where('workspace_id', '=', a.workspaceId),
  );
  const sumSince = (column: 'usage' | 'byok_usage', since: string) => sql<number>`coalesce(sum(case when day >= ${since} then ${sql.ref(column)} else 0 end), 0)`;
  const usageInWindows = preparedQuery(driver, (a: { keyId: string; from: string } & UsageWindows) =>
    db
      .selectFrom('key_usage_daily')
      .select([
        sumSince('usage', a.day).as('usage_daily'),
        sumSince('usage', a.weekStart).as('usage_weekly'),
        sumSince('usage', a.monthStart).as('usage_monthly'),
        sumSince('byok_usage', a.day).as('byok_usage_daily'),
        sumSince('byok_usage', a.weekStart).as('byok_usage_weekly'),
        sumSince('byok_usage', a.monthStart).as('byok_usage_monthly'),
      ])
      .where('key_id', '=', a.keyId)
      .where('day', '>=', a.from)
      .where('day', '<=', a.day),
  );

  return {
    async create(key: NewApiKey, now: Date): Promise<ApiKeyRow> {
      return db
        .insertInto('api_keys')
        .values({ id: randomUUID(), ...key, usage_total: 0, byok_usage_total: 0, created_at: now.toISOString(), updated_at: null })
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** The key that a bearer token hashes to, whatever its workspace. */
    async findByHash(hash: string): Promise<ApiKeyRow | undefined> {
      return (await byHash({ hash }))[0];
    },

    async findInWorkspace(workspaceId: string, hash: string): Promise<ApiKeyRow | undefined> {
      return (await inWorkspace({ workspaceId, hash }))[0];
    },

    async setDisabled(hash: string, disabled: boolean, now: Date): Promise<boolean> {
      const result = await db.updateTable('api_keys').set({ disabled, updated_at: now.toISOString() }).where('hash', '=', hash).executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Adds usage to the key's UTC-day bucket and to its running totals, atomically. */
    async recordUsage(keyId: string, at: Date, amount: { usage: number; byok_usage: number }): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('key_usage_daily')
          .values({ key_id: keyId, day: utcDay(at), usage: amount.usage, byok_usage: amount.byok_usage })
          .onConflict((oc) =>
            oc.columns(['key_id', 'day']).doUpdateSet({
              usage: sql`key_usage_daily.usage + excluded.usage`,
              byok_usage: sql`key_usage_daily.byok_usage + excluded.byok_usage`,
            }),
          )
          .execute();
        await trx
          .updateTable('api_keys')
          .set({
            usage_total: sql`usage_total + ${amount.usage}`,
            byok_usage_total: sql`byok_usage_total + ${amount.byok_usage}`,
          })
          .where('id', '=', keyId)
          .execute();
      });
    },

    /** Usage in the current day, week and month: a range read of at most 37 daily buckets. */
    async windowUsage(keyId: string, windows: UsageWindows): Promise<KeyWindowUsage> {
      const from = windows.weekStart < windows.monthStart ? windows.weekStart : windows.monthStart;
      const [row] = await usageInWindows({ keyId, from, ...windows });
      // PostgreSQL sums come back as strings.
      return {
        usage_daily: Number(row?.usage_daily ?? 0),
        usage_weekly: Number(row?.usage_weekly ?? 0),
        usage_monthly: Number(row?.usage_monthly ?? 0),
        byok_usage_daily: Number(row?.byok_usage_daily ?? 0),
        byok_usage_weekly: Number(row?.byok_usage_weekly ?? 0),
        byok_usage_monthly: Number(row?.byok_usage_monthly ?? 0),
      };
    },
  };
}
