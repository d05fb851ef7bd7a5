// A model of a destination under PATCH, written from the prose of openapi.yaml, independently of
// the server's code: what the stored state and the answer must be after a sequence of updates.
import { configSchemaName } from '../../scripts/conformance/generate/arbitraries.js';
import { sampleString } from '../../scripts/conformance/generate/samples.js';
import { resolveRef, spec } from '../support/spec.js';

export type Config = Record<string, string | Record<string, string>>;
export interface ModelState {
  name: string | null;
  enabled: boolean;
  privacy_mode: boolean;
  sampling_rate: number;
  api_key_hashes: string[] | null;
  filter_rules: unknown;
  broadcast_generation_cost: boolean;
  broadcast_generation_identity: boolean;
  broadcast_generation_request_context: boolean;
  regions: string[];
  config: Config;
}

/** The documented mask: first 4, `...`, last 4 for 32 characters or more; `********` for fewer. */
export const mask = (secret: string) =>
  secret.length < 32 ? '********' : `${secret.slice(0, 4)}...${secret.slice(-4)}`;
export const looksMasked = (value: string) => value.includes('...') || /^\*+$/.test(value);

export function secretKeysOf(type: string): Set<string> {
  const properties = (
    spec.components.schemas[configSchemaName(type)] as { properties: Record<string, { $ref?: string }> }
  ).properties;
  return new Set(
    Object.entries(properties)
      .filter(([, p]) => p.$ref === '#/components/schemas/ConfigSecret')
      .map(([key]) => key),
  );
}

/** The model of a PATCH, written from the spec's prose, independently of the server's code. */
export function applyToModel(model: ModelState, body: Record<string, unknown>, secrets: Set<string>): ModelState {
  const next: ModelState = { ...model, config: { ...model.config } };
  for (const field of [
    'name',
    'enabled',
    'privacy_mode',
    'sampling_rate',
    'api_key_hashes',
    'broadcast_generation_cost',
    'broadcast_generation_identity',
    'broadcast_generation_request_context',
  ] as const) {
    if (field in body) Object.assign(next, { [field]: body[field] });
  }
  if ('regions' in body) {
    // DataRegionListUpdate: eu is europe; each region once, in the order global, europe, us.
    const named = (body.regions as string[]).map((region) => (region === 'eu' ? 'europe' : region));
    next.regions = ['global', 'europe', 'us'].filter((region) => named.includes(region));
  }
  if ('filter_rules' in body) {
    const rules = body.filter_rules as {
      enabled?: boolean;
      groups: { logic?: string; rules: { field: string; operator: string; value?: unknown }[] }[];
    } | null;
    next.filter_rules =
      rules === null
        ? null
        : {
            enabled: rules.enabled ?? true,
            groups: rules.groups.map((g) => ({
              logic: g.logic ?? 'and',
              rules: g.rules.map((r) =>
                r.value === undefined
                  ? { field: r.field, operator: r.operator }
                  : { field: r.field, operator: r.operator, value: r.value },
              ),
            })),
          };
  }
  for (const [key, value] of Object.entries((body.config as Config | undefined) ?? {})) {
    const old = model.config[key];
    if (typeof value === 'object') {
      const oldHeaders = typeof old === 'object' ? old : {};
      next.config[key] = Object.fromEntries(
        Object.entries(value).map(([name, v]) => {
          const before = Object.hasOwn(oldHeaders, name) ? oldHeaders[name] : undefined;
          return [name, before !== undefined && v === mask(before) ? before : v];
        }),
      );
    } else {
      next.config[key] = secrets.has(key) && typeof old === 'string' && value === mask(old) ? old : value;
    }
  }
  return next;
}

export function shown(model: ModelState, secrets: Set<string>) {
  const config = Object.fromEntries(
    Object.entries(model.config).map(([key, value]) => [
      key,
      typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([n, v]) => [n, mask(v)]))
        : secrets.has(key)
          ? mask(value)
          : value,
    ]),
  );
  return { ...model, config };
}

/**
 * A working config for each destination type, made from the required keys of its schema: a value
 * of its format where the key's schema has one (a URL for an HttpUrl), its first enum value, or text.
 */
export function sampleConfig(type: string): Record<string, string> {
  const schema = spec.components.schemas[configSchemaName(type)] as {
    required: string[];
    properties: Record<string, { enum?: string[]; $ref?: string }>;
  };
  const sampleValue = (key: string): string => {
    const property = resolveRef(schema.properties[key] ?? {}) as { enum?: string[]; format?: string };
    if (property.format !== undefined) return sampleString(property);
    return property.enum?.[0] ?? `${key}-value-0123456789`;
  };
  return Object.fromEntries(schema.required.map((key) => [key, sampleValue(key)]));
}
