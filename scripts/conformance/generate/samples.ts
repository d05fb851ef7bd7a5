// The smallest valid value of a schema of openapi.yaml, the same every time: what a generated
// request carries around the one field it breaks, so that nothing else in it is wrong.
import fc from 'fast-check';
import type { JsonObject } from '../../../server/spec.js';

export type Resolve = (schema: JsonObject) => JsonObject;

/** A UUID (version 4) that names nothing: valid by format, and no workspace holds it. */
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

const FORMAT_SAMPLES: Record<string, string> = {
  uuid: UNKNOWN_UUID,
  'date-time': '2026-01-01T00:00:00.000Z',
  date: '2026-01-01',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  email: 'someone@example.com',
  regex: '^a',
};

/** The JSON types a schema takes: from `type`, its alternatives, its `enum` or `const`; all when it does not say. */
export function typesOf(schema: JsonObject, resolve: Resolve): Set<string> {
  const target = resolve(schema);
  if (Array.isArray(target.type)) return new Set(target.type as string[]);
  if (typeof target.type === 'string') return new Set([target.type]);
  const alternatives = (target.oneOf ?? target.anyOf) as JsonObject[] | undefined;
  if (alternatives) return new Set(alternatives.flatMap((alternative) => [...typesOf(alternative, resolve)]));
  const values = Array.isArray(target.enum) ? target.enum : 'const' in target ? [target.const] : undefined;
  if (values) return new Set(values.map(jsonTypeOf));
  return new Set(['string', 'number', 'integer', 'boolean', 'null', 'array', 'object']);
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The alternatives of a union schema, or the schema alone. */
export function alternativesOf(schema: JsonObject, resolve: Resolve): JsonObject[] {
  const target = resolve(schema);
  const alternatives = (target.oneOf ?? target.anyOf) as JsonObject[] | undefined;
  return alternatives ? alternatives.map(resolve) : [target];
}

/** A string the pattern matches, within the schema's lengths. */
function stringMatching(schema: JsonObject): string {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = (schema.maxLength as number | undefined) ?? Number.POSITIVE_INFINITY;
  const [found] = fc.sample(
    fc
      .stringMatching(new RegExp(schema.pattern as string, 'u'))
      .filter((s) => s.length >= minLength && s.length <= maxLength),
    { seed: 1, numRuns: 1 },
  );
  if (found === undefined) throw new Error(`no sample for pattern ${String(schema.pattern)}`);
  return found;
}

export function sampleString(schema: JsonObject): string {
  if (typeof schema.format === 'string' && FORMAT_SAMPLES[schema.format])
    return FORMAT_SAMPLES[schema.format] as string;
  if (typeof schema.pattern === 'string') return stringMatching(schema);
  return 'x'.repeat(Math.max((schema.minLength as number | undefined) ?? 1, 1));
}

function sampleNumber(schema: JsonObject): number {
  const minimum = schema.minimum as number | undefined;
  const maximum = schema.maximum as number | undefined;
  if (minimum !== undefined) return minimum;
  if (maximum !== undefined) return Math.min(maximum, 0);
  return 0;
}

function sampleObject(schema: JsonObject, resolve: Resolve): Record<string, unknown> {
  const properties = (schema.properties as Record<string, JsonObject> | undefined) ?? {};
  const required = (schema.required as string[] | undefined) ?? [];
  const sampled: Record<string, unknown> = {};
  for (const key of required) if (properties[key]) sampled[key] = sampleOf(properties[key], resolve);
  const minProperties = (schema.minProperties as number | undefined) ?? 0;
  const additional = schema.additionalProperties;
  if (Object.keys(sampled).length < minProperties && typeof additional === 'object' && additional !== null) {
    const names = propertyNamesOf(schema, minProperties);
    for (const name of names) sampled[name] = sampleOf(additional as JsonObject, resolve);
  }
  return sampled;
}

/** `count` distinct names that the object's `propertyNames` take. */
export function propertyNamesOf(schema: JsonObject, count: number): string[] {
  const names = schema.propertyNames as JsonObject | undefined;
  const base = names ? sampleString({ ...names, pattern: names.pattern ?? '^[a-z]+$' }) : 'key';
  return Array.from({ length: count }, (_, i) => (i === 0 ? base : `${base.slice(0, 200)}-${i}`));
}

/** The smallest valid value of a schema: its first alternative, required properties only, minimum items. */
export function sampleOf(schema: JsonObject, resolve: Resolve): unknown {
  const target = resolve(schema);
  if ('const' in target) return target.const;
  if (Array.isArray(target.enum)) return target.enum[0];
  const alternatives = (target.oneOf ?? target.anyOf) as JsonObject[] | undefined;
  if (alternatives) {
    const first = alternatives.find((alternative) => resolve(alternative).type !== 'null') ?? alternatives[0];
    return first ? sampleOf(first, resolve) : null;
  }
  const types = typesOf(target, resolve);
  const type = [...types].find((t) => t !== 'null') ?? 'null';
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return sampleNumber(target);
    case 'string':
      return sampleString(target);
    case 'array':
      return itemsOf(target, (target.minItems as number | undefined) ?? 0, resolve);
    default:
      return sampleObject(target, resolve);
  }
}

/**
 * `count` valid items of an array schema: the sample of its items, or under uniqueItems as many
 * values of their enum as there are (past them, the items repeat and break uniqueItems).
 */
export function itemsOf(schema: JsonObject, count: number, resolve: Resolve): unknown[] {
  const items = resolve(schema.items as JsonObject);
  const values = schema.uniqueItems === true && Array.isArray(items.enum) ? (items.enum as unknown[]) : [];
  const sample = sampleOf(items, resolve);
  return Array.from({ length: count }, (_item, index) => (index < values.length ? values[index] : sample));
}
