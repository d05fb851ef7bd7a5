// The merge of a PATCH into a destination: omitted keeps, null clears, config merged key by key
// with the masked-secret rule. Pure: the caller supplies the current state and stores the result.
import { isDeepStrictEqual } from 'node:util';
import type { components } from '../../generated/api.js';
import { HEADERS_KEY, type ConfigValues, type DestinationTypeRules } from './destination-types.js';
import { FieldValidationError, type FieldError } from './field-errors.js';
import { looksMasked, maskSecret } from './masking.js';

type Destination = components['schemas']['ObservabilityDestination'];
type DestinationUpdate = components['schemas']['ObservabilityDestinationUpdate'];

export type DestinationState = Pick<Destination, 'name' | 'enabled' | 'privacy_mode' | 'sampling_rate' | 'api_key_hashes' | 'filter_rules'> & {
  config: ConfigValues;
};

const SCALAR_FIELDS = ['name', 'enabled', 'privacy_mode', 'sampling_rate'] as const;

function resolveSecret(stored: string | undefined, incoming: string, path: string, errors: FieldError[]): string {
  if (stored !== undefined && incoming === maskSecret(stored)) return stored;
  if (looksMasked(incoming)) {
    errors.push({ path, message: 'looks like a masked value; send the full secret, or the value exactly as returned to keep it' });
  }
  return incoming;
}

function mergeConfig(current: ConfigValues, update: NonNullable<DestinationUpdate['config']>, rules: DestinationTypeRules, errors: FieldError[]): ConfigValues {
  const next: ConfigValues = { ...current };
  for (const [key, value] of Object.entries(update)) {
    const path = `/body/config/${key}`;
    if (!rules.keys.has(key)) {
      errors.push({ path, message: `is not a config key of a ${rules.type} destination` });
    } else if (key === HEADERS_KEY && typeof value === 'object') {
      const stored = typeof current[key] === 'object' ? current[key] : {};
      next[key] = Object.fromEntries(
        Object.entries(value).map(([name, headerValue]) => {
          // Own properties only: a header may be called `__proto__` or `constructor`.
          const storedValue = Object.hasOwn(stored, name) ? stored[name] : undefined;
          return [name, resolveSecret(storedValue, headerValue, `${path}/${name}`, errors)];
        }),
      );
    } else if (typeof value === 'string') {
      const stored = current[key];
      next[key] = rules.secretKeys.has(key) ? resolveSecret(typeof stored === 'string' ? stored : undefined, value, path, errors) : value;
    }
  }
  errors.push(...rules.validate(next, '/body/config'));
  return next;
}

export interface PatchResult {
  next: DestinationState;
  changed: boolean;
}

/** Applies an update; throws FieldValidationError naming every field that breaks a rule. */
export function applyDestinationPatch(current: DestinationState, update: DestinationUpdate, rules: DestinationTypeRules): PatchResult {
  const errors: FieldError[] = [];
  const next: DestinationState = { ...current };
  for (const field of SCALAR_FIELDS) {
    if (update[field] !== undefined) Object.assign(next, { [field]: update[field] });
  }
  if (update.api_key_hashes !== undefined) next.api_key_hashes = update.api_key_hashes;
  if (update.filter_rules !== undefined) next.filter_rules = update.filter_rules;
  if (update.config !== undefined) next.config = mergeConfig(current.config, update.config, rules, errors);
  if (errors.length > 0) throw new FieldValidationError(errors);
  return { next, changed: !isDeepStrictEqual(next, current) };
}
