// The data regions of a destination: the list as an update sends it, where `eu` is another name
// for `europe`, and as it is stored and returned, each region once in one order, so that the same
// regions sent in another order change nothing.
import type { components } from '../../generated/api.js';

type DataRegion = components['schemas']['DataRegion'];
export type DataRegions = components['schemas']['DataRegionList'];
export type DataRegionsSent = components['schemas']['DataRegionListUpdate'];

/** Where each region sorts: the order of DataRegion's enum in openapi.yaml, every region once. */
const REGION_ORDER = { global: 0, europe: 1, us: 2 } as const satisfies Record<DataRegion, number>;

const REGION_NAMED = { global: 'global', europe: 'europe', us: 'us', eu: 'europe' } as const satisfies Record<
  DataRegionsSent[number],
  DataRegion
>;

/** What a destination created without regions has (openapi.yaml, DataRegionList). */
export const DEFAULT_REGIONS: DataRegions = ['global'];

/** The regions as stored: `eu` as `europe`, each region once (`eu` and `europe` together are Europe once). */
export function storedRegions(sent: DataRegionsSent): DataRegions {
  const regions = new Set<DataRegion>(sent.map((name) => REGION_NAMED[name]));
  return [...regions].sort((a, b) => REGION_ORDER[a] - REGION_ORDER[b]);
}
