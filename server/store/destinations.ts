// Observability destinations. Reads return domain models (config decrypted, JSON columns parsed,
// booleans as booleans); a PATCH reads, decides (domain/destination-update.ts) and writes, with no
// other write in between.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Kysely, Selectable } from 'kysely';
import { DEFAULT_REGIONS } from '../domain/data-regions.js';
import type { ConfigValues, DestinationType, DestinationTypeRules } from '../domain/destination-config-rules.js';
import {
  type DestinationState,
  type DestinationUpdateRequest,
  decideDestinationUpdate,
  type StoredDestination,
  type UpdateDecision,
} from '../domain/destination-update.js';
import type { SecretBox } from '../domain/secrets.js';
import type { CallTrace } from './call-trace.js';
import {
  COLUMN_FIELD_ARGUMENTS,
  type ColumnField,
  readColumnFields,
  type WrittenColumns,
  writeColumnFields,
} from './destination-columns.js';
import { argument, preparedQuery, type QueryDriver } from './prepared.js';
import { type Database, DESTINATION_COLUMNS, type DestinationsTable } from './tables.js';

type DestinationRow = Selectable<DestinationsTable>;
/** The columns of what a PATCH can change: each field of the state, the config sealed. */
type DestinationColumns = Pick<WrittenColumns, ColumnField | 'config_sealed'>;

export type NewDestination = { workspace_id: string; type: DestinationType } & Pick<
  DestinationState,
  'name' | 'config'
> &
  Partial<Omit<DestinationState, 'name' | 'config'>>;

/** What became of an update, and the destination after it. */
export interface UpdateOutcome {
  outcome: UpdateDecision['outcome'];
  destination: StoredDestination;
}

export function destinationStore(
  db: Kysely<Database>,
  driver: QueryDriver,
  secrets: SecretBox,
  { lockForUpdate }: { lockForUpdate: boolean },
) {
  function fromRow(row: DestinationRow): StoredDestination {
    return {
      id: row.id,
      workspace_id: row.workspace_id,
      type: row.type as DestinationType,
      revision: row.revision,
      created_at: row.created_at,
      updated_at: row.updated_at,
      state: { ...readColumnFields(row), config: JSON.parse(secrets.open(row.config_sealed)) as ConfigValues },
    };
  }

  /**
   * The row's sealed config when an update leaves the config as it was and it is sealed under the
   * current key: a change of another field costs no encryption. Undefined when it must be sealed anew.
   */
  function keptSealedConfig(row: DestinationRow, before: ConfigValues, after: ConfigValues): string | undefined {
    return isDeepStrictEqual(after, before) && secrets.isCurrent(row.config_sealed) ? row.config_sealed : undefined;
  }

  function toColumns(state: DestinationState, sealedConfig?: string): DestinationColumns {
    return { ...writeColumnFields(state), config_sealed: sealedConfig ?? secrets.seal(JSON.stringify(state.config)) };
  }

  const readOne = (locking: boolean) =>
    preparedQuery(
      driver,
      locking ? 'destinations.readForUpdate' : 'destinations.read',
      { workspaceId: argument<string>(), id: argument<string>() },
      (a) =>
        db
          .selectFrom('destinations')
          .select(DESTINATION_COLUMNS)
          .where('id', '=', a.id)
          .where('workspace_id', '=', a.workspaceId)
          .$if(locking, (query) => query.forUpdate()),
    );
  const read = readOne(false);
  // SQLite has no row locks (its update transaction locks the database); it never takes this one.
  const readLocking = lockForUpdate ? readOne(true) : read;
  // Applies only over the revision that was read, and says so by returning the row's id.
  const write = preparedQuery(
    driver,
    'destinations.write',
    {
      ...COLUMN_FIELD_ARGUMENTS,
      config_sealed: argument<DestinationColumns['config_sealed']>(),
      id: argument<string>(),
      readRevision: argument<number>(),
      revision: argument<number>(),
      updated_at: argument<string>(),
    },
    ({ id, readRevision, ...columns }) =>
      db
        .updateTable('destinations')
        .set(columns)
        .where('id', '=', id)
        .where('revision', '=', readRevision)
        .returning('id'),
  );

  return {
    /** The destination of the workspace with this id, its secrets opened; undefined when there is none. */
    async read(workspaceId: string, id: string, trace?: CallTrace): Promise<StoredDestination | undefined> {
      const [row] = await driver.run(read.bind({ workspaceId, id }), trace);
      return row === undefined ? undefined : fromRow(row);
    },

    async create(destination: NewDestination, now: Date): Promise<StoredDestination> {
      const state: DestinationState = {
        enabled: true,
        privacy_mode: false,
        sampling_rate: 1,
        api_key_hashes: null,
        filter_rules: null,
        broadcast_generation_cost: false,
        broadcast_generation_identity: false,
        broadcast_generation_request_context: false,
        regions: DEFAULT_REGIONS,
        ...destination,
      };
      const at = now.toISOString();
      const row = await db
        .insertInto('destinations')
        .values({
          id: randomUUID(),
          workspace_id: destination.workspace_id,
          type: destination.type,
          ...toColumns(state),
          revision: 1,
          created_at: at,
          updated_at: at,
        })
        .returning(DESTINATION_COLUMNS)
        .executeTakeFirstOrThrow();
      return fromRow(row);
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
        const rows = await db
          .selectFrom('destinations')
          .select(['id', 'config_sealed'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(100)
          .execute();
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
     * Reads a destination, decides the update (domain/destination-update.ts) and writes what is
     * decided, with no other write in between (QueryDriver.readModifyWrite), so that concurrent
     * updates of different fields never lose one another. A change bumps the revision and `updated_at`. Undefined when the destination is not
     * in the workspace; a FieldValidationError of the decision writes nothing.
     */
    async update(
      workspaceId: string,
      id: string,
      now: Date,
      request: DestinationUpdateRequest,
      rulesOf: (type: DestinationType) => DestinationTypeRules,
      trace?: CallTrace,
    ): Promise<UpdateOutcome | undefined> {
      return driver.readModifyWrite<DestinationRow, UpdateOutcome | undefined>(
        {
          plain: read.bind({ workspaceId, id }),
          locking: readLocking.bind({ workspaceId, id }),
          row: `destinations/${workspaceId}/${id}`,
        },
        (row) => {
          if (!row) return { result: undefined };
          const current = fromRow(row);
          const decision = decideDestinationUpdate(current, request, rulesOf(current.type));
          if (decision.outcome !== 'changed') return { result: { outcome: decision.outcome, destination: current } };
          const changed = { revision: current.revision + 1, updated_at: now.toISOString() };
          const columns = toColumns(decision.next, keptSealedConfig(row, current.state.config, decision.next.config));
          // What was written is the decided state: no need to read it back and decrypt it again.
          return {
            result: { outcome: decision.outcome, destination: { ...current, ...changed, state: decision.next } },
            write: write.bind({ ...columns, id, readRevision: current.revision, ...changed }),
          };
        },
        trace,
      );
    },
  };
}
