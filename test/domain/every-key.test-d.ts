// Key lists checked complete (server/domain/every-key.ts), and the destination's settings held by
// them against the generated contract: a field that the contract gains and a list leaves out
// does not compile.
import { describe, expectTypeOf, it } from 'vitest';
import type { components } from '../../generated/api.js';
import { DESTINATION_SETTINGS, type DestinationSetting } from '../../server/domain/destination-update.js';
import { everyKey, recordOfEveryKey } from '../../server/domain/every-key.js';

type Destination = components['schemas']['ObservabilityDestination'];
interface Point {
  x: number;
  y: number;
  label: string;
}

describe('every key', () => {
  it('takes a list of every key, in its order, and refuses one that leaves a key out', () => {
    expectTypeOf(everyKey<Point>()(['label', 'x', 'y'])).toEqualTypeOf<readonly ['label', 'x', 'y']>();
    // @ts-expect-error: y is left out
    everyKey<Point>()(['x', 'label']);
    // @ts-expect-error: z is no key of a point
    everyKey<Point>()(['x', 'y', 'label', 'z']);
  });

  it('makes a record of every key, each value of its own type', () => {
    const pointOf = recordOfEveryKey<Point>()(['x', 'y', 'label']);
    expectTypeOf(pointOf).returns.toEqualTypeOf<Point>();
    // @ts-expect-error: label is left out
    recordOfEveryKey<Point>()(['x', 'y']);
    const source: Point = { x: 1, y: 2, label: 'a' };
    pointOf((key) => source[key]);
    // @ts-expect-error: a value of another key's type
    pointOf(() => 0);
  });

  it("lists every setting of the contract's destination, the identity, regions and config aside", () => {
    expectTypeOf<DestinationSetting>().toEqualTypeOf<
      Exclude<keyof Destination, 'id' | 'workspace_id' | 'type' | 'created_at' | 'updated_at' | 'regions' | 'config'>
    >();
    expectTypeOf<(typeof DESTINATION_SETTINGS)[number]>().toEqualTypeOf<DestinationSetting>();
    // A field added to the contract and not to the list: the list no longer compiles.
    type Grown = Pick<Destination, DestinationSetting> & { broadcast_generation_region: boolean };
    // @ts-expect-error: broadcast_generation_region is left out
    everyKey<Grown>()(DESTINATION_SETTINGS);
  });
});
