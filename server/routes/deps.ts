import type { DestinationType, DestinationTypeRules } from '../domain/destination-types.js';
import type { Clock } from '../domain/time.js';
import type { Store } from '../store/index.js';

/** What the handlers need, injected by createApp. */
export interface RouteDeps {
  store: Store;
  clock: Clock;
  destinationTypes: ReadonlyMap<DestinationType, DestinationTypeRules>;
}
