// A destination, and the decision of a PATCH on it: stale against If-Match, or the merge of the
// update (omitted keeps, null clears, config merged key by key with the masked-secret rule) and
// whether it changes anything. Pure: the store reads the current destination and writes what is
// decided, in one transaction.
import { isDeepStrictEqual } from 'node:util';
import type { components } from '../../generated/api.js';
import { escapePointer } from '../spec.js';
import { type DataRegions, storedRegions } from './data-regions.js';
import {
  type ConfigValues,
  type DestinationType,
  type DestinationTypeRules,
  secretsOf,
} from './destination-config-rules.js';
import { destinationEtag, ifMatchSatisfied } from './etag.js';
import { everyKey } from './every-key.js';
import { type FieldError, FieldValidationError } from './field-errors.js';
import { looksMasked, maskSecret } from './masking.js';

type Destination = components['schemas']['ObservabilityDestination'];
type DestinationUpdate = components['schemas']['ObservabilityDestinationUpdate'];

/** The fields of a destination that the server gives it, never a PATCH. */
type DestinationIdentity = 'id' | 'workspace_id' | 'type' | 'created_at' | 'updated_at';
/** A field of the contract's destination that a PATCH takes as sent: every one but the identity, regions and config. */
export type DestinationSetting = Exclude<keyof Destination, DestinationIdentity | 'regions' | 'config'>;

/**
 * The settings of a destination, beside its regions and its config: what a PATCH or the CLI sets,
 * in the contract's order. A setting that the contract gains is a type error here until listed.
 */
export const DESTINATION_SETTINGS = everyKey<Pick<Destination, DestinationSetting>>()([
  'name',
  'enabled',
  'privacy_mode',
  'sampling_rate',
  'api_key_hashes',
  'filter_rules',
  'broadcast_generation_cost',
  'broadcast_generation_identity',
  'broadcast_generation_request_context',
]);

/** What a PATCH can change; the config with its secrets in clear. */
export type DestinationState = Pick<Destination, DestinationSetting> & {
  regions: DataRegions;
  config: ConfigValues;
};

/** A destination as the server keeps it. */
export interface StoredDestination {
  id: string;
  workspace_id: string;
  type: DestinationType;
  /** Grows with every real change; the ETag is derived from it. */
  revision: number;
  created_at: string;
  updated_at: string;
  state: DestinationState;
}

export interface DestinationUpdateRequest {
  /** The If-Match header, when the update is conditional. */
  ifMatch?: string | undefined;
  changes: DestinationUpdate;
}

export type UpdateDecision =
  | { outcome: 'stale' }
  | { outcome: 'unchanged' }
  | { outcome: 'changed'; next: DestinationState };

/** The settings of an update, each of the type the state keeps (checked where an update is taken as one). */
type SettingsSent = Partial<Pick<DestinationState, DestinationSetting>>;

/** Omitted keeps the setting; any other value, null included, replaces it. */
function replaceSent<F extends DestinationSetting>(next: DestinationState, sent: SettingsSent, field: F): void {
  const value: DestinationState[F] | undefined = sent[field];
  if (value !== undefined) next[field] = value;
}

function resolveSecret(stored: string | undefined, incoming: string, path: string, errors: FieldError[]): string {
  if (stored !== undefined && incoming === maskSecret(stored)) return stored;
  if (looksMasked(incoming)) {
    errors.push({
      path,
      message: 'looks like a masked value; send the full secret, or the value exactly as returned to keep it',
    });
  }
  return incoming;
}

function mergeConfig(
  current: ConfigValues,
  update: NonNullable<DestinationUpdate['config']>,
  rules: DestinationTypeRules,
  errors: FieldError[],
): ConfigValues {
  const next: ConfigValues = { ...current };
  for (const [key, value] of Object.entries(update)) {
    const path = `/body/config/${escapePointer(key)}`;
    if (!rules.keys.has(key)) {
      errors.push({ path, message: `is not a config key of a ${rules.type} destination` });
    } else if (secretsOf(key, value, rules.secretKeys) === 'each header') {
      const stored = typeof current[key] === 'object' ? current[key] : {};
      next[key] = Object.fromEntries(
        Object.entries(value).map(([name, headerValue]) => {
          // Own properties only: a header may be called `__proto__` or `constructor`.
          const storedValue = Object.hasOwn(stored, name) ? stored[name] : undefined;
          return [name, resolveSecret(storedValue, headerValue, `${path}/${escapePointer(name)}`, errors)];
        }),
      );
    } else if (typeof value === 'string') {
      const stored = current[key];
      next[key] =
        secretsOf(key, value, rules.secretKeys) === 'the value'
          ? resolveSecret(typeof stored === 'string' ? stored : undefined, value, path, errors)
          : value;
    }
  }
  errors.push(...rules.validate(next, '/body/config'));
  return next;
}

/** The fields of a config update that break a rule of the current destination's type. */
export function configUpdateErrors(
  current: StoredDestination,
  update: NonNullable<DestinationUpdate['config']>,
  rules: DestinationTypeRules,
): FieldError[] {
  const errors: FieldError[] = [];
  mergeConfig(current.state.config, update, rules, errors);
  return errors;
}

/**
 * The update as the store keeps its values, so that "changed" is decided on what would be stored:
 * the store writes them as JSON text (filter rules, key hashes, the sealed config), where -0 is 0.
 * Text that a database would store otherwise (U+0000, unpaired surrogates) never gets here: the
 * request is refused before (domain/storable-text.ts).
 */
function storedForm(changes: DestinationUpdate): DestinationUpdate {
  return JSON.parse(JSON.stringify(changes)) as DestinationUpdate;
}

/**
 * Decides a PATCH of the current destination: stale when If-Match does not match its ETag;
 * otherwise the merged state, or unchanged when the merge changes no value. Throws
 * FieldValidationError naming every field that breaks a rule of the destination's type.
 */
export function decideDestinationUpdate(
  current: StoredDestination,
  request: DestinationUpdateRequest,
  rules: DestinationTypeRules,
): UpdateDecision {
  if (request.ifMatch !== undefined && !ifMatchSatisfied(request.ifMatch, destinationEtag(current.revision)))
    return { outcome: 'stale' };
  const changes = storedForm(request.changes);
  const errors: FieldError[] = [];
  const next: DestinationState = { ...current.state };
  const settings: SettingsSent = changes;
  for (const field of DESTINATION_SETTINGS) replaceSent(next, settings, field);
  if (changes.regions !== undefined) next.regions = storedRegions(changes.regions);
  if (changes.config !== undefined) next.config = mergeConfig(current.state.config, changes.config, rules, errors);
  if (errors.length > 0) throw new FieldValidationError(errors);
  return isDeepStrictEqual(next, current.state) ? { outcome: 'unchanged' } : { outcome: 'changed', next };
}
