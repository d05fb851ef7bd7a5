// A destination as the API shows it: the stored one with every secret of its config masked.
import type { components } from '../../generated/api.js';
import type { DestinationTypeRules } from './destination-config-rules.js';
import { DESTINATION_SETTINGS, type DestinationSetting, type StoredDestination } from './destination-update.js';
import { recordOfEveryKey } from './every-key.js';
import { maskConfig } from './masking.js';

type Destination = components['schemas']['ObservabilityDestination'];

const settingsOf = recordOfEveryKey<Pick<Destination, DestinationSetting>>()(DESTINATION_SETTINGS);

/** The destination as the API shows it, its fields in the contract's order: every secret masked. */
export function toApiDestination(destination: StoredDestination, rules: DestinationTypeRules): Destination {
  const { state } = destination;
  // The contract has `type` between the name and the other settings.
  const { name, ...settings } = settingsOf((field) => state[field]);
  return {
    id: destination.id,
    workspace_id: destination.workspace_id,
    name,
    type: destination.type,
    ...settings,
    regions: state.regions,
    config: maskConfig(state.config, rules.secretKeys) as Destination['config'],
    created_at: destination.created_at,
    updated_at: destination.updated_at,
  };
}
