// A destination read back as the store reads it for a PATCH (its one read path): an update that
// changes nothing reads the row and writes nothing.
import {
  configRulesOf,
  type DestinationType,
  loadDestinationTypeRules,
} from '../../server/domain/destination-config-rules.js';
import type { StoredDestination } from '../../server/domain/destination-update.js';
import { loadSpec } from '../../server/spec.js';
import type { Store } from '../../server/store/store.js';

const rules = loadDestinationTypeRules(loadSpec());
const rulesOf = (type: DestinationType) => configRulesOf(rules, type);

/** The destination of the workspace as stored; undefined when the workspace has no such destination. */
export async function readDestination(
  store: Pick<Store, 'destinations'>,
  workspaceId: string,
  id: string,
): Promise<StoredDestination | undefined> {
  return (await store.destinations.update(workspaceId, id, new Date(), { changes: {} }, rulesOf))?.destination;
}
