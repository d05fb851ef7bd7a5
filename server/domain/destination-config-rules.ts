// Per-type rules for destination config, read from the `*Config` schemas of openapi.yaml (each
// marked with `x-destination-type`): which keys a type accepts, which are secrets, and the
// schema a merged config must satisfy. Adding a type or a key is an edit of the spec alone.
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { components } from '../../generated/api.js';
import {
  compileComponent,
  createSpecAjv,
  escapePointer,
  isObject,
  type JsonObject,
  type OpenApiDocument,
  resolveRef,
} from '../spec.js';
import type { FieldError } from './field-errors.js';

export type DestinationType = components['schemas']['DestinationType'];

/** Plain config values as stored (secrets decrypted): strings, and `headers` as a map of strings. */
export type ConfigValues = Record<string, string | Record<string, string>>;

const HEADERS_KEY = 'headers';

/**
 * Which values of a config entry are secrets, the one rule masking, updating and provisioning
 * follow: each value of `headers` (they carry credentials), the value of a key the spec marks
 * `x-secret`, or none.
 */
export function secretsOf(
  key: string,
  value: unknown,
  secretKeys: ReadonlySet<string>,
): 'each header' | 'the value' | 'none' {
  if (key === HEADERS_KEY && typeof value === 'object' && value !== null) return 'each header';
  if (secretKeys.has(key) && typeof value === 'string') return 'the value';
  return 'none';
}

export interface DestinationTypeRules {
  readonly type: DestinationType;
  readonly keys: ReadonlySet<string>;
  readonly secretKeys: ReadonlySet<string>;
  /** Errors of a complete config against the type's schema, with paths under `pathPrefix`. */
  validate(config: ConfigValues, pathPrefix: string): FieldError[];
}

function isSecret(spec: OpenApiDocument, property: JsonObject): boolean {
  if (property['x-secret'] === true) return true;
  const target = resolveRef(spec, property);
  return isObject(target) && target['x-secret'] === true;
}

function fieldErrors(validate: ValidateFunction, pathPrefix: string): FieldError[] {
  return (validate.errors ?? []).map((error) => {
    const extra =
      error.keyword === 'additionalProperties'
        ? `/${escapePointer(String(error.params.additionalProperty))}`
        : error.keyword === 'required'
          ? `/${escapePointer(String(error.params.missingProperty))}`
          : '';
    return {
      path: `${pathPrefix}${error.instancePath}${extra}`,
      message: error.message ?? 'is invalid',
    };
  });
}

export function loadDestinationTypeRules(spec: OpenApiDocument): ReadonlyMap<DestinationType, DestinationTypeRules> {
  const ajv = createSpecAjv(spec);
  const rules = new Map<DestinationType, DestinationTypeRules>();
  for (const [schemaName, schema] of Object.entries(spec.components.schemas)) {
    const type = schema['x-destination-type'] as DestinationType | undefined;
    if (type === undefined) continue;
    const properties = schema.properties as Record<string, JsonObject>;
    const validate = compileComponent(ajv, schemaName);
    rules.set(type, {
      type,
      keys: new Set(Object.keys(properties)),
      secretKeys: new Set(
        Object.entries(properties)
          .filter(([, p]) => isSecret(spec, p))
          .map(([key]) => key),
      ),
      validate(config, pathPrefix) {
        return validate(config) ? [] : fieldErrors(validate, pathPrefix);
      },
    });
  }
  return rules;
}

/** The rules of a type; a type the spec lacks is a bug of the server (its rows come from provisioning). */
export function configRulesOf(
  rules: ReadonlyMap<DestinationType, DestinationTypeRules>,
  type: DestinationType,
): DestinationTypeRules {
  const found = rules.get(type);
  if (!found) throw new Error(`openapi.yaml has no config schema for destination type ${type}`);
  return found;
}
