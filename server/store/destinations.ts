import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DestinationState } from '../domain/destination-patch.js';
import type { ConfigValues, DestinationType } from '../domain/destination-types.js';
import type { SecretBox } from '../domain/secrets.js';
import { preparedQuery, type QueryDriver } from './prepared.js';
import type { Database, DestinationsTable } from './schema.js';

type DestinationRow = Selectable<DestinationsTable>;
type DestinationColumns = Required<Pick<Insertable<DestinationsTable>, 'name' | 'enabled' | 'privacy_mode' | 'sampling_rate' | 'api_key_hashes' | 'filter_rules' | 'config_sealed'>>;

/** A destination as the rest of the server sees it: config decrypted, JSON columns parsed. */
export interface StoredDestination {
  id: string;
  workspace_id: string;
  type: DestinationType;
  revision: number;
  created_at: string;
  updated_at: string;
  state: DestinationState;
}

export type NewDestination = { workspace_id: string; type: DestinationType } & Pick<DestinationState, 'name' | 'config'> &
  Partial<Omit<DestinationState, 'name' | 'config'>>;

/** What an update decides after reading the current destination: nothing to write, or the new state. */
export type DestinationDecision<T> = { result: T; next?: DestinationState };

function parseJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

export function destinationStore(db: Kysely<Database>, driver: QueryDriver, secrets: SecretBox, { lockForUpdate }: { lockForUpdate: boolean }) {
  function fromRow(row: DestinationRow): StoredDestination {
    return {
      id: row.id,
      workspace_id: row.workspace_id,
      type: row.type as DestinationType,
      revision: row.revision,
      created_at: row.created_at,
      updated_at: row.updated_at,
      state: {
        name: row.name,
        enabled: Boolean(row.enabled),
        privacy_mode: Boolean(row.privacy_mode),
        sampling_rate: row.sampling_rate,
        api_key_hashes: parseJson(row.api_key_hashes),
        filter_rules: parseJson(row.filter_rules),
        config: JSON.parse(secrets.open(row.config_sealed)) as ConfigValues,
      },
    };
  }

  function toColumns(state: DestinationState): DestinationColumns {
    return {
      name: state.name,
      enabled: state.enabled,
      privacy_mode: state.privacy_mode,
      sampling_rate: state.sampling_rate,
      api_key_hashes: state.api_key_hashes === null ? null : JSON.stringify(state.api_key_hashes),
      filter_rules: state.filter_rules === null ? null : JSON.stringify(state.filter_rules),
      config_sealed: secrets.seal(JSON.stringify(state.config)),
    };
  }

  const readForUpdate = preparedQuery(driver, (a: { workspaceId: string; id: string }) =>
    db
      .selectFrom('destinations')
      .selectAll()
      .where('id', '=', a.id)
      .where('workspace_id', '=', a.workspaceId)
      .$if(lockForUpdate, (query) => query.forUpdate()),
  );
  const write = preparedQuery(driver, (a: DestinationColumns & { id: string; revision: number; updated_at: string }) =>
    db
      .updateTable('destinations')
      .set({
        name: a.name,
        enabled: a.enabled,
        privacy_mode: a.privacy_mode,
        sampling_rate: a.sampling_rate,
        api_key_hashes: a.api_key_hashes,
        filter_rules: a.filter_rules,
        config_sealed: a.config_sealed,
        revision: a.revision,
        updated_at: a.updated_at,
      })
      .where('id', '=', a.id),
  );

  return {
    async create(destination: NewDestination, now: Date): Promise<StoredDestination> {
      const state: DestinationState = {
        enabled: true,
        privacy_mode: false,
        sampling_rate: 1,
        api_key_hashes: null,
        filter_rules: null,
        ...destination,
      };
      const at = now.toISOString();
      const row = await db
        .insertInto('destinations')
        .values({ id: randomUUID(), workspace_id: destination.workspace_id, type: destination.type, ...toColumns(state), revision: 1, created_at: at, updated_at: at })
        .returningAll()
        .executeTakeFirstOrThrow();
      return fromRow(row);
    },

    async find(workspaceId: string, id: string): Promise<StoredDestination | undefined> {
      const row = await db.selectFrom('destinations').selectAll().where('id', '=', id).where('workspace_id', '=', workspaceId).executeTakeFirst();
      return row && fromRow(row);
    },

    /**
     * Re-encrypts under the current key every config sealed under a previous one, a row at a
     * time. A row changed meanwhile (by a PATCH, which seals under the current key anyway) is
     * left as it is. Reads go on throughout: both keys open what they sealed.
     */
    async resealAll(): Promise<{ resealed: number; current: number }> {
      let resealed = 0;
      let current = 0;
      let after = '';
      for (;;) {
        const rows = await db.selectFrom('destinations').select(['id', 'config_sealed']).where('id', '>', after).orderBy('id').limit(100).execute();
        if (rows.length === 0) return { resealed, current };
        for (const row of rows) {
          if (secrets.isCurrent(row.config_sealed)) {
            current += 1;
            continue;
          }
          const result = await db
            .updateTable('destinations')
            .set({ config_sealed: secrets.seal(secrets.open(row.config_sealed)) })
            .where('id', '=', row.id)
            .where('config_sealed', '=', row.config_sealed)
            .executeTakeFirst();
          resealed += Number(result.numUpdatedRows);
        }
        after = rows[rows.length - 1]?.id ?? after;
      }
    },

    /**
     * Reads a destination and writes the state that `decide` computes from it, in one
     * transaction, so that concurrent updates of different fields never lose one another.
     * A write bumps the revision and `updated_at`. Undefined when the destination is not in the
     * workspace; an error thrown by `decide` writes nothing.
     */
    async update<T>(
      workspaceId: string,
      id: string,
      now: Date,
      decide: (current: StoredDestination) => DestinationDecision<T>,
    ): Promise<{ destination: StoredDestination; result: T } | undefined> {
      return driver.readModifyWrite(readForUpdate.bind({ workspaceId, id }), (row) => {
        if (!row) return { result: undefined };
        const current = fromRow(row);
        const { result, next } = decide(current);
        if (next === undefined) return { result: { destination: current, result } };
        const changed = { revision: current.revision + 1, updated_at: now.toISOString() };
        // What was written is `next`: no need to read it back and decrypt it again.
        return {
          result: { destination: { ...current, ...changed, state: next }, result },
          write: write.bind({ ...toColumns(next), id, ...changed }),
        };
      });
    },
  };
}
