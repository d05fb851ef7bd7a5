// How a destination's state is kept in its row: the one declaration of its fields' columns, from
// which the store reads a row, writes one and declares its write. Each field but the config is
// kept in a column of its own name (the config is sealed, see store/destinations.ts).
import type { Insertable, Selectable } from 'kysely';
import type { components } from '../../generated/api.js';
import type { DataRegions } from '../domain/data-regions.js';
import { DESTINATION_SETTINGS, type DestinationState } from '../domain/destination-update.js';
import { recordOfEveryKey } from '../domain/every-key.js';
import { argument, type Declared } from './prepared.js';
import type { DestinationsTable } from './tables.js';

type Schemas = components['schemas'];
type DestinationRow = Selectable<DestinationsTable>;
/** What a write gives each column. */
export type WrittenColumns = Required<Insertable<DestinationsTable>>;

/** The fields of the state kept each in the column of its name. */
export type ColumnField = Exclude<keyof DestinationState, 'config'> & keyof DestinationsTable;

/** How a field is read from its column and written to it. */
export interface ColumnConversion<F extends ColumnField> {
  read: (value: DestinationRow[F]) => DestinationState[F];
  write: (value: DestinationState[F]) => WrittenColumns[F];
}

export type DestinationFieldColumns = { readonly [F in ColumnField]: ColumnConversion<F> };

const asIs = { read: <T>(value: T): T => value, write: <T>(value: T): T => value };
/** SQLite reads a boolean back as 0 or 1. */
const asBoolean = { read: (value: boolean | number): boolean => Boolean(value), write: (value: boolean) => value };
const asJson = <T>() => ({ read: (text: string) => JSON.parse(text) as T, write: (value: T) => JSON.stringify(value) });
const asNullableJson = <T>() => ({
  read: (text: string | null) => (text === null ? null : (JSON.parse(text) as T)),
  write: (value: T | null) => (value === null ? null : JSON.stringify(value)),
});

export const DESTINATION_FIELD_COLUMNS: DestinationFieldColumns = {
  name: asIs,
  enabled: asBoolean,
  privacy_mode: asBoolean,
  sampling_rate: asIs,
  api_key_hashes: asNullableJson<Schemas['ApiKeyHashList']>(),
  filter_rules: asNullableJson<NonNullable<Schemas['FilterRules']>>(),
  broadcast_generation_cost: asBoolean,
  broadcast_generation_identity: asBoolean,
  broadcast_generation_request_context: asBoolean,
  regions: asJson<DataRegions>(),
};

/** The column fields in the contract's order: the state read has its keys in that order. */
const COLUMN_FIELDS = [...DESTINATION_SETTINGS, 'regions'] as const;

const stateOf = recordOfEveryKey<Pick<DestinationState, ColumnField>>()(COLUMN_FIELDS);
const columnsOf = recordOfEveryKey<Pick<WrittenColumns, ColumnField>>()(COLUMN_FIELDS);

/** The state's fields but the config, as the row keeps them. */
export function readColumnFields(row: DestinationRow): Pick<DestinationState, ColumnField> {
  return stateOf((field) => DESTINATION_FIELD_COLUMNS[field].read(row[field]));
}

/** The columns of the state's fields but the config. */
export function writeColumnFields(state: DestinationState): Pick<WrittenColumns, ColumnField> {
  return columnsOf((field) => DESTINATION_FIELD_COLUMNS[field].write(state[field]));
}

/**
 * The arguments of a prepared write of the column fields, each of its column's type. A declaration
 * is a type and no value (prepared.ts), so the one made for each field is given its type here;
 * preparing the write checks that each is a parameter of its SQL.
 */
export const COLUMN_FIELD_ARGUMENTS = Object.fromEntries(COLUMN_FIELDS.map((field) => [field, argument()])) as {
  [F in ColumnField]: Declared<WrittenColumns[F]>;
};
