// API keys and their usage. Reads return domain models (booleans as booleans, the API's names).
import { randomUUID } from 'node:crypto';
import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { KeyCredentials, StoredApiKey } from '../domain/api-keys.js';
import { type UsageWindows, utcDay } from '../domain/time.js';
import type { CallTrace } from './call-trace.js';
import { type Argument, argument, preparedQuery, type QueryDriver } from './prepared.js';
import { API_KEY_COLUMNS, type ApiKeysTable, type Database } from './tables.js';

export type NewApiKey = Omit<
  Insertable<ApiKeysTable>,
  'id' | 'usage_total' | 'byok_usage_total' | 'created_at' | 'updated_at'
>;

function credentials(
  row: Pick<Selectable<ApiKeysTable>, 'id' | 'workspace_id' | 'kind' | 'disabled' | 'expires_at'>,
): KeyCredentials {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    kind: row.kind,
    disabled: Boolean(row.disabled),
    expires_at: row.expires_at,
  };
}

/**
 * How long a process answers a key's credentials from what it read: a key disabled or changed
 * elsewhere (the CLI, another instance) is refused by every process within this long.
 */
export const KEY_CREDENTIALS_TTL_MS = 1000;
/** Keys whose credentials a process holds at once, the least recently used let go first. */
export const KEY_CREDENTIALS_HELD = 10_000;

export function keyStore(db: Kysely<Database>, driver: QueryDriver) {
  // Only keys that exist are held: a hash that matches no key, whatever a client sends, leaves nothing behind.
  const credentialsRead = new LRUCache<string, KeyCredentials>({
    max: KEY_CREDENTIALS_HELD,
    ttl: KEY_CREDENTIALS_TTL_MS,
    updateAgeOnGet: false,
  });
  const byHash = preparedQuery(driver, 'keys.byHash', { hash: argument<string>() }, (a) =>
    db
      .selectFrom('api_keys')
      .select(['id', 'workspace_id', 'kind', 'disabled', 'expires_at'])
      .where('hash', '=', a.hash),
  );
  // The key and its usage in the current day, week and month, in one statement: a join from the
  // key to a range of its daily buckets (at most 37 of them), summed.
  const sumSince = (column: 'u.usage' | 'u.byok_usage', since: Argument<string>) =>
    sql<number>`coalesce(sum(case when u.day >= ${since} then ${sql.ref(column)} else 0 end), 0)`;
  const withUsage = preparedQuery(
    driver,
    'keys.withUsage',
    {
      workspaceId: argument<string>(),
      hash: argument<string>(),
      from: argument<string>(),
      day: argument<string>(),
      weekStart: argument<string>(),
      monthStart: argument<string>(),
    },
    (a) =>
      db
        .selectFrom('api_keys as k')
        .leftJoin('key_usage_daily as u', (join) =>
          join.onRef('u.key_id', '=', 'k.id').on('u.day', '>=', a.from).on('u.day', '<=', a.day),
        )
        .select(API_KEY_COLUMNS.map((column) => `k.${column}` as const))
        .select([
          sumSince('u.usage', a.day).as('usage_daily'),
          sumSince('u.usage', a.weekStart).as('usage_weekly'),
          sumSince('u.usage', a.monthStart).as('usage_monthly'),
          sumSince('u.byok_usage', a.day).as('byok_usage_daily'),
          sumSince('u.byok_usage', a.weekStart).as('byok_usage_weekly'),
          sumSince('u.byok_usage', a.monthStart).as('byok_usage_monthly'),
        ])
        .where('k.hash', '=', a.hash)
        .where('k.workspace_id', '=', a.workspaceId)
        .groupBy('k.id'),
  );

  return {
    async create(key: NewApiKey, now: Date): Promise<KeyCredentials & { hash: string }> {
      const row = await db
        .insertInto('api_keys')
        .values({
          id: randomUUID(),
          ...key,
          usage_total: 0,
          byok_usage_total: 0,
          created_at: now.toISOString(),
          updated_at: null,
        })
        .returning(API_KEY_COLUMNS)
        .executeTakeFirstOrThrow();
      return { ...credentials(row), hash: row.hash };
    },

    /**
     * The key that a bearer token hashes to, whatever its workspace, as read from the database in
     * the last KEY_CREDENTIALS_TTL_MS (a change made through this store is seen at once).
     */
    async findByHash(hash: string, trace?: CallTrace): Promise<KeyCredentials | undefined> {
      const held = credentialsRead.get(hash);
      if (held) return held;
      const [row] = await byHash({ hash }, trace);
      if (!row) return undefined;
      const read = credentials(row);
      credentialsRead.set(hash, read);
      return read;
    },

    /** A key of the workspace with its usage in the given windows; undefined when the workspace has no such key. */
    async findInWorkspaceWithUsage(
      workspaceId: string,
      hash: string,
      windows: UsageWindows,
      trace?: CallTrace,
    ): Promise<StoredApiKey | undefined> {
      // The earlier of the two: ISO days sort as the dates they name.
      const [from = windows.day] = [windows.weekStart, windows.monthStart].sort();
      const [row] = await withUsage({ workspaceId, hash, from, ...windows }, trace);
      if (!row) return undefined;
      // PostgreSQL sums come back as strings.
      return {
        hash: row.hash,
        name: row.name,
        label: row.label,
        disabled: Boolean(row.disabled),
        limit: row.spend_limit,
        limit_reset: row.limit_reset,
        include_byok_in_limit: Boolean(row.include_byok_in_limit),
        usage: row.usage_total,
        usage_daily: Number(row.usage_daily),
        usage_weekly: Number(row.usage_weekly),
        usage_monthly: Number(row.usage_monthly),
        byok_usage: row.byok_usage_total,
        byok_usage_daily: Number(row.byok_usage_daily),
        byok_usage_weekly: Number(row.byok_usage_weekly),
        byok_usage_monthly: Number(row.byok_usage_monthly),
        created_at: row.created_at,
        updated_at: row.updated_at,
        expires_at: row.expires_at,
        creator_user_id: row.creator_user_id,
        external_user: row.external_user,
        workspace_id: row.workspace_id,
      };
    },

    async setDisabled(hash: string, disabled: boolean, now: Date): Promise<boolean> {
      const result = await db
        .updateTable('api_keys')
        .set({ disabled, updated_at: now.toISOString() })
        .where('hash', '=', hash)
        .executeTakeFirst();
      credentialsRead.delete(hash);
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
  };
}
