// Values that break exactly one keyword of a schema, and values exactly at its bounds, as JSON
// text the way a client can write them: digits, exponents, signs, numbers past a double's range,
// strings counted in code points. Parameters take the same keywords written as URL text
// (parameter-values.ts); these are for JSON bodies.
import { escapePointer, type JsonObject } from '../../../server/spec.js';
import type { FieldRole } from './body-fields.js';
import { itemsOf, propertyNamesOf, type Resolve, sampleOf, typesOf } from './samples.js';

export interface Violation {
  /** The keyword broken: `maximum`, `type`, `required`... */
  keyword: string;
  /** What the value is, for a person: `maximum + 1, written with an exponent`. */
  label: string;
  /** The value as JSON text. */
  text: string;
  /** Appended to the field's pointer for the field the 400 must name: `/missing` for `required`. */
  at?: string;
  /** The 400 names the body itself: the text is not JSON at all. */
  namesBody?: boolean;
}

/** A value exactly at a bound: valid, to be answered as any valid request. */
export interface Boundary {
  label: string;
  text: string;
}

/** One value of each JSON type, for a field of another type. */
const OF_TYPE: Record<string, string> = {
  string: '"1"',
  integer: '1',
  number: '1.5',
  boolean: 'true',
  null: 'null',
  array: '[]',
  object: '{}',
};

/** Text every database refuses to store (openapi.yaml, "Text"): U+0000, a surrogate outside a pair. */
const UNSTORABLE = ['"a\\u0000b"', '"\\ud800"'];

/**
 * Set on a schema read in place of the spec's own (a destination's type's config keys in place of
 * every type's): the spec's own schema, whose other properties this object refuses.
 */
export const REPLACES = 'x-conformance-replaces';

/** Secrets of masked shape (openapi.yaml, DestinationConfig): refused, so that a mask is never stored. */
// Neither is the mask of a stored secret, which is `********` or 4 characters, `...`, 4 characters.
const MASK_SHAPED = ['"abc...xyz"', '"*****"'];

/** Patterns that a backtracking engine matches in time exponential or polynomial in the input. */
export const CATASTROPHIC_PATTERNS = ['(a+)+$', '(a|a)*b', '(a*)*b', '^(\\w+\\s?)*$', '(x+x+)+y', '^(a|aa)+$'];

/** Numbers JSON writes that no double holds: what a client's overflow sends. */
const PAST_A_DOUBLE = ['1e999', `1${'0'.repeat(309)}`, '-1e999', `-${'9'.repeat(400)}`];

/** Number forms that are not JSON: the body is not JSON, and the 400 says so. */
const NOT_JSON_NUMBERS = ['+1', '01', '.5', 'Infinity', 'NaN', '0x10'];

const str = (value: string) => JSON.stringify(value);

function typeViolations(schema: JsonObject, resolve: Resolve): Violation[] {
  const allowed = typesOf(schema, resolve);
  // An integer is a number: a schema of numbers takes both, one of integers refuses a fraction.
  if (allowed.has('number')) allowed.add('integer');
  return Object.entries(OF_TYPE)
    .filter(([type]) => !allowed.has(type))
    .map(([type, text]) => ({
      keyword: type === 'null' ? 'nullability' : 'type',
      label:
        type === 'null' ? 'null where null is not allowed' : `a ${type} where ${[...allowed].join(' or ')} is expected`,
      text,
    }));
}

function numberViolations(schema: JsonObject): { violations: Violation[]; boundaries: Boundary[] } {
  const violations: Violation[] = [];
  const boundaries: Boundary[] = [];
  const integer = schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer'));
  const minimum = schema.minimum as number | undefined;
  const maximum = schema.maximum as number | undefined;
  if (minimum !== undefined) {
    const below = integer ? minimum - 1 : minimum > 0 ? minimum / 2 : minimum - 1;
    violations.push(
      { keyword: 'minimum', label: `minimum - ${integer ? 1 : 'a little'} (${below})`, text: String(below) },
      { keyword: 'minimum', label: 'below the minimum, with an exponent', text: below.toExponential() },
      { keyword: 'minimum', label: 'far below the minimum (-1e308)', text: '-1e308' },
    );
    if (minimum > 0)
      violations.push({ keyword: 'minimum', label: 'a number that rounds to 0 (1e-400)', text: '1e-400' });
    boundaries.push(
      { label: `the minimum (${minimum})`, text: String(minimum) },
      { label: 'the minimum, with an exponent', text: minimum.toExponential().toUpperCase() },
    );
  }
  if (maximum !== undefined) {
    const above = maximum + 1;
    violations.push(
      { keyword: 'maximum', label: `maximum + 1 (${above})`, text: String(above) },
      { keyword: 'maximum', label: 'above the maximum, with an exponent', text: above.toExponential() },
      { keyword: 'maximum', label: 'far above the maximum (1e308)', text: '1e308' },
    );
    boundaries.push(
      { label: `the maximum (${maximum})`, text: String(maximum) },
      { label: 'the maximum, with an exponent and a sign', text: maximum.toExponential().replace('e+', 'E+') },
    );
  }
  for (const text of PAST_A_DOUBLE)
    violations.push({ keyword: 'type', label: `a number past a double's range (${text.slice(0, 12)}…)`, text });
  for (const text of NOT_JSON_NUMBERS)
    violations.push({ keyword: 'type', label: `a number written as JSON does not (${text})`, text, namesBody: true });
  return { violations, boundaries };
}

/** Absolute URIs (to a fast format check) that a pattern on a `uri` may refuse: other schemes, no host. */
const OTHER_URIS = ['javascript:alert(1)', 'file:///etc/passwd', 'ftp://x', 'http://'];

/** A string the pattern refuses. */
function unmatched(pattern: string): string | undefined {
  const regex = new RegExp(pattern, 'u');
  return ['', ' ', '!', 'é', '\u{1F642}', 'x'.repeat(300)].find((candidate) => !regex.test(candidate));
}

const BAD_FORMATS: Record<string, string[]> = {
  uuid: ['not-a-uuid', '00000000-0000-4000-8000-00000000000Z', '000000000000400080000000000000000'],
  'date-time': ['2026-13-01T00:00:00Z', 'yesterday'],
  date: ['2026-02-30', 'today'],
  regex: ['(', '[a-', '\\p{Nope}'],
  uri: ['not a uri', '/a/relative/path'],
  email: ['not-an-email'],
};

function stringViolations(schema: JsonObject): { violations: Violation[]; boundaries: Boundary[] } {
  const violations: Violation[] = [];
  const boundaries: Boundary[] = [];
  const minLength = schema.minLength as number | undefined;
  const maxLength = schema.maxLength as number | undefined;
  const free = schema.pattern === undefined && schema.format === undefined && schema.enum === undefined;
  if (minLength !== undefined && minLength > 0)
    violations.push({
      keyword: 'minLength',
      label: `minLength - 1 (${minLength - 1})`,
      text: str('x'.repeat(minLength - 1)),
    });
  if (maxLength !== undefined) {
    violations.push(
      {
        keyword: 'maxLength',
        label: `maxLength + 1 (${maxLength + 1}) ASCII characters`,
        text: str('x'.repeat(maxLength + 1)),
      },
      {
        keyword: 'maxLength',
        label: `maxLength + 1 (${maxLength + 1}) characters outside the BMP`,
        text: str('\u{1F642}'.repeat(maxLength + 1)),
      },
    );
    if (free)
      boundaries.push(
        { label: `maxLength (${maxLength}) ASCII characters`, text: str('x'.repeat(maxLength)) },
        // A code point outside the BMP is two UTF-16 units and one character of JSON Schema.
        { label: `maxLength (${maxLength}) characters outside the BMP`, text: str('\u{1F642}'.repeat(maxLength)) },
      );
  }
  if (typeof schema.pattern === 'string') {
    const bad = unmatched(schema.pattern);
    if (bad !== undefined)
      violations.push({ keyword: 'pattern', label: `not matching ${schema.pattern}`, text: str(bad) });
    if (schema.format === 'uri') {
      const regex = new RegExp(schema.pattern, 'u');
      for (const uri of OTHER_URIS.filter((candidate) => !regex.test(candidate)))
        violations.push({ keyword: 'pattern', label: `a uri the pattern refuses (${uri})`, text: str(uri) });
    }
  }
  if (typeof schema.format === 'string')
    for (const bad of BAD_FORMATS[schema.format] ?? [])
      violations.push({ keyword: 'format', label: `not a ${schema.format} (${bad})`, text: str(bad) });
  if (Array.isArray(schema.enum)) {
    const first = String(schema.enum[0]);
    for (const bad of new Set([first.toUpperCase(), `${first} `, 'conformance-unknown']))
      if (!schema.enum.includes(bad))
        violations.push({ keyword: 'enum', label: `not one of the enum (${bad})`, text: str(bad) });
  }
  for (const text of UNSTORABLE) violations.push({ keyword: 'text', label: `unstorable text (${text})`, text });
  if (schema['x-secret'] === true)
    for (const text of MASK_SHAPED)
      violations.push({ keyword: 'x-secret', label: `a secret of masked shape (${text})`, text });
  if (schema['x-linear-time'] === true)
    for (const pattern of CATASTROPHIC_PATTERNS)
      violations.push({ keyword: 'x-linear-time', label: `a catastrophic pattern (${pattern})`, text: str(pattern) });
  return { violations, boundaries };
}

function arrayViolations(schema: JsonObject, resolve: Resolve): { violations: Violation[]; boundaries: Boundary[] } {
  const violations: Violation[] = [];
  const boundaries: Boundary[] = [];
  const list = (count: number) => JSON.stringify(itemsOf(schema, count, resolve));
  const minItems = schema.minItems as number | undefined;
  const maxItems = schema.maxItems as number | undefined;
  if (minItems !== undefined && minItems > 0)
    violations.push({ keyword: 'minItems', label: `minItems - 1 (${minItems - 1}) items`, text: list(minItems - 1) });
  if (schema.uniqueItems === true && (maxItems === undefined || maxItems >= 2)) {
    const item = JSON.stringify(sampleOf(schema.items as JsonObject, resolve));
    violations.push({ keyword: 'uniqueItems', label: 'the same item twice', text: `[${item},${item}]` });
  }
  if (maxItems !== undefined) {
    violations.push({ keyword: 'maxItems', label: `maxItems + 1 (${maxItems + 1}) items`, text: list(maxItems + 1) });
    boundaries.push({ label: `maxItems (${maxItems}) items`, text: list(maxItems) });
  }
  return { violations, boundaries };
}

function objectViolations(
  schema: JsonObject,
  sample: unknown,
  resolve: Resolve,
): { violations: Violation[]; boundaries: Boundary[] } {
  const violations: Violation[] = [];
  const boundaries: Boundary[] = [];
  const base = (sample ?? {}) as Record<string, unknown>;
  for (const key of (schema.required as string[] | undefined) ?? []) {
    const { [key]: _missing, ...rest } = base;
    violations.push({
      keyword: 'required',
      label: `without ${key}`,
      text: JSON.stringify(rest),
      at: `/${escapePointer(key)}`,
    });
  }
  if (schema.additionalProperties === false) {
    violations.push({
      keyword: 'additionalProperties',
      label: 'an unknown property',
      text: JSON.stringify({ ...base, conformance_unknown: 1 }),
      at: '/conformance_unknown',
    });
    const own = (schema[REPLACES] as JsonObject | undefined)?.properties as Record<string, JsonObject> | undefined;
    const mine = (schema.properties as Record<string, JsonObject> | undefined) ?? {};
    const [other, otherSchema] = Object.entries(own ?? {}).find(([key]) => !(key in mine)) ?? [];
    if (other && otherSchema)
      violations.push({
        keyword: 'additionalProperties',
        label: `a property the spec's schema takes but not this object's (${other})`,
        text: JSON.stringify({ ...base, [other]: sampleOf(otherSchema, resolve) }),
        at: `/${escapePointer(other)}`,
      });
  }
  const additional = schema.additionalProperties;
  const maxProperties = schema.maxProperties as number | undefined;
  if (typeof additional === 'object' && additional !== null) {
    const value = sampleOf(additional as JsonObject, resolve);
    const map = (count: number) =>
      JSON.stringify(Object.fromEntries(propertyNamesOf(schema, count).map((n) => [n, value])));
    if (maxProperties !== undefined) {
      violations.push({
        keyword: 'maxProperties',
        label: `maxProperties + 1 (${maxProperties + 1})`,
        text: map(maxProperties + 1),
      });
      boundaries.push({ label: `maxProperties (${maxProperties})`, text: map(maxProperties) });
    }
    const names = schema.propertyNames as JsonObject | undefined;
    const badName = typeof names?.pattern === 'string' ? unmatched(names.pattern) : undefined;
    if (badName)
      violations.push({
        keyword: 'propertyNames',
        label: `a property name not matching ${String(names?.pattern)}`,
        text: JSON.stringify({ [badName]: value }),
        at: `/${escapePointer(badName)}`,
      });
  }
  return { violations, boundaries };
}

/** What breaks the field, and what lies exactly on its bounds. */
export function violationsOf(
  schema: JsonObject,
  role: FieldRole,
  sample: unknown,
  resolve: Resolve,
): { violations: Violation[]; boundaries: Boundary[] } {
  // A union's field is checked for the types its alternatives take, each alternative for the rest.
  if (role === 'union') return { violations: typeViolations(schema, resolve), boundaries: [] };
  const types = typesOf(schema, resolve);
  const parts = [
    role === 'plain' ? { violations: typeViolations(schema, resolve), boundaries: [] } : undefined,
    types.has('number') || types.has('integer') ? numberViolations(schema) : undefined,
    types.has('string') ? stringViolations(schema) : undefined,
    types.has('array') && schema.items ? arrayViolations(schema, resolve) : undefined,
    types.has('object') ? objectViolations(schema, sample, resolve) : undefined,
  ];
  return {
    violations: parts.flatMap((part) => part?.violations ?? []),
    boundaries: parts.flatMap((part) => part?.boundaries ?? []),
  };
}
