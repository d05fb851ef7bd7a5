// The one declaration of a destination's columns (server/store/destination-columns.ts) is held
// complete and typed against the contract and the table's row types.
import { describe, expectTypeOf, it } from 'vitest';
import type { components } from '../../generated/api.js';
import {
  type ColumnField,
  DESTINATION_FIELD_COLUMNS,
  type DestinationFieldColumns,
  readColumnFields,
  writeColumnFields,
} from '../../server/store/destination-columns.js';

type Destination = components['schemas']['ObservabilityDestination'];

describe('the columns of a destination', () => {
  it('has a column for every field of the contract but the identity and the sealed config', () => {
    expectTypeOf<ColumnField>().toEqualTypeOf<
      Exclude<keyof Destination, 'id' | 'workspace_id' | 'type' | 'created_at' | 'updated_at' | 'config'>
    >();
    expectTypeOf(readColumnFields).returns.toEqualTypeOf<Pick<Destination, ColumnField>>();
    expectTypeOf(writeColumnFields).returns.toHaveProperty('enabled').toEqualTypeOf<boolean>();
    expectTypeOf(writeColumnFields).returns.toHaveProperty('api_key_hashes').toEqualTypeOf<string | null>();
  });

  it('refuses a declaration that leaves a field out or converts one to another type', () => {
    const { regions: _regions, ...withoutRegions } = DESTINATION_FIELD_COLUMNS;
    // @ts-expect-error: regions has no column
    const incomplete: DestinationFieldColumns = withoutRegions;
    const wrongRead: DestinationFieldColumns = {
      ...DESTINATION_FIELD_COLUMNS,
      // @ts-expect-error: enabled is read as 0 or 1 on SQLite, and the state holds a boolean
      enabled: { read: (value: boolean | number) => value, write: (value: boolean) => value },
    };
    const wrongWrite: DestinationFieldColumns = {
      ...DESTINATION_FIELD_COLUMNS,
      // @ts-expect-error: the regions column holds JSON text
      regions: { read: DESTINATION_FIELD_COLUMNS.regions.read, write: (value: string[]) => value },
    };
    expectTypeOf([incomplete, wrongRead, wrongWrite]).toBeArray();
  });
});
