// A store that only records what provisioning hands destinations.create, for tests of what is
// given to the store (and what is refused before it).
import type { Store } from '../../server/store/store.js';

export function recordingStore(): { store: Store; given: unknown[] } {
  const given: unknown[] = [];
  const destinations = {
    create: async (destination: unknown) => {
      given.push(destination);
      return {};
    },
  };
  return { store: { destinations } as unknown as Store, given };
}
