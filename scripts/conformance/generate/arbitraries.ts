// fast-check arbitraries built from the schemas of openapi.yaml, read at test time: what a
// schema allows is what gets generated. The only hand-written knowledge is below, in
// `semanticRules`: the rules the spec states in prose that a JSON Schema cannot express (masks).
import fc from 'fast-check';
import { componentSchemaName, type JsonObject, loadSpec, resolveRef } from '../../../server/spec.js';

const spec = loadSpec();

type Schema = JsonObject;

export interface GenerationOptions {
  /** Replaces the schema a `$ref` names, by component name. */
  overrides?: Record<string, fc.Arbitrary<unknown>>;
  /** How strings marked `x-secret` are generated. */
  secret?: fc.Arbitrary<string>;
}

/** The component a `$ref` names, by name, and its schema, `$ref`s followed. */
function component(ref: string): { name: string; schema: Schema } {
  return { name: componentSchemaName(ref) ?? ref, schema: resolveRef(spec, { $ref: ref }, ref) as Schema };
}

function isSecret(schema: Schema): boolean {
  return schema['x-secret'] === true;
}

const text = (minLength: number, maxLength: number) =>
  fc.string({
    unit: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_./:') },
      {
        weight: 1,
        // Beyond ASCII: a combining accent, zero-width and direction marks, U+2028, the last code
        // point, U+FFFD itself: text every database stores as it is.
        arbitrary: fc.constantFrom(
          'é',
          'ß',
          '中',
          '🙂',
          ' ',
          '"',
          '\\',
          '\u0301',
          '\u200b',
          '\u202e',
          '\u2028',
          '\u{10ffff}',
          '\ufffd',
        ),
      },
    ),
    minLength,
    maxLength,
  });

// Building the arbitrary of a pattern costs tens of ms for a long one (HttpUrl's): each pattern is
// built once, however many times the schemas that use it are turned into arbitraries.
const matchingArbitraries = new Map<string, fc.Arbitrary<string>>();

function matching(pattern: string): fc.Arbitrary<string> {
  let arbitrary = matchingArbitraries.get(pattern);
  if (!arbitrary) {
    arbitrary = fc.stringMatching(new RegExp(pattern));
    matchingArbitraries.set(pattern, arbitrary);
  }
  return arbitrary;
}

function stringArbitrary(schema: Schema, options: GenerationOptions): fc.Arbitrary<string> {
  if (isSecret(schema) && options.secret) return options.secret;
  if (schema.format === 'uuid') return fc.uuid();
  // Any text, taken literally: a valid regular expression of the same length or longer.
  if (schema.format === 'regex')
    return text(0, Math.min((schema.maxLength as number | undefined) ?? 40, 40) / 2).map((t) =>
      t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'),
    );
  if (typeof schema.pattern === 'string') {
    const maxLength = (schema.maxLength as number | undefined) ?? Number.POSITIVE_INFINITY;
    return matching(schema.pattern).filter((value) => value.length <= maxLength);
  }
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.min((schema.maxLength as number | undefined) ?? 40, minLength + 40);
  return fc.oneof(
    text(minLength, maxLength),
    fc.constant('x'.repeat(Math.max(minLength, (schema.maxLength as number | undefined) ?? minLength))),
  );
}

/** Numbers at the edges of a double: its signed zero, the smallest and largest magnitudes. */
const EDGE_NUMBERS = [
  -0,
  0,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  1e-300,
  -1e-300,
  1e300,
  -1e300,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
];

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = (schema.minimum as number | undefined) ?? (integer ? -1_000_000 : -Number.MAX_VALUE);
  const max = (schema.maximum as number | undefined) ?? (integer ? 1_000_000 : Number.MAX_VALUE);
  const inside = integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  const edges = integer ? [] : EDGE_NUMBERS.filter((edge) => edge >= min && edge <= max);
  // The bounds themselves are where off-by-one mistakes live.
  return fc.oneof({ weight: 1, arbitrary: fc.constantFrom(min, max, ...edges) }, { weight: 4, arbitrary: inside });
}

function objectArbitrary(schema: Schema, options: GenerationOptions): fc.Arbitrary<unknown> {
  const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const required = (schema.required as string[] | undefined) ?? [];
  const record = fc.record(
    Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, arbitraryFor(value, options)])),
    { requiredKeys: required.filter((key) => key in properties) },
  );
  const additional = schema.additionalProperties;
  if (additional === undefined || additional === false || additional === true || Object.keys(properties).length > 0)
    return record;
  const names = schema.propertyNames as Schema | undefined;
  const keys = names?.pattern ? matching(names.pattern as string).filter((k) => k.length <= 40) : text(1, 20);
  return fc.dictionary(keys, arbitraryFor(additional as Schema, options), { maxKeys: 3 });
}

export function arbitraryFor(schema: Schema, options: GenerationOptions = {}): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string') {
    const { name, schema: target } = component(schema.$ref);
    const override = options.overrides?.[name];
    return override ?? arbitraryFor({ ...target, ...(isSecret(schema) && { 'x-secret': true }) }, options);
  }
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => arbitraryFor(alternative, options)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (Array.isArray(schema.type))
    return fc.oneof(
      ...(schema.type as string[]).map((type) => arbitraryFor({ ...schema, type, enum: undefined }, options)),
    );
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'string':
      return stringArbitrary(schema, options);
    case 'array': {
      const items = arbitraryFor(schema.items as Schema, options);
      const lengths = {
        minLength: (schema.minItems as number | undefined) ?? 0,
        maxLength: Math.min((schema.maxItems as number | undefined) ?? 4, 4),
      };
      // Items equal as JSON are equal to uniqueItems.
      return schema.uniqueItems === true
        ? fc.uniqueArray(items, { ...lengths, selector: (item) => JSON.stringify(item) })
        : fc.array(items, lengths);
    }
    case 'object':
      return objectArbitrary(schema, options);
    default:
      throw new Error(`no generator for schema ${JSON.stringify(schema).slice(0, 200)}`);
  }
}

/** The schema of a component, with its `required` list dropped: a partial update of it. */
export function partialOf(componentName: string): Schema {
  const schema = spec.components.schemas[componentName];
  if (!schema) throw new Error(`no component ${componentName}`);
  return { ...schema, required: [] };
}

export function configSchemaName(destinationType: string): string {
  const found = Object.entries(spec.components.schemas).find(
    ([, schema]) => schema['x-destination-type'] === destinationType,
  );
  if (!found) throw new Error(`no config schema for ${destinationType}`);
  return found[0];
}

/** What the spec says in prose, which a JSON Schema cannot say. */
export const semanticRules = {
  /** A secret must not have the shape of a mask (it would be refused, as documented). */
  secret: text(1, 60).filter((value) => !value.includes('...') && !/^\*+$/.test(value)),
  /** Text no database stores as sent, refused wherever it is: U+0000, or a surrogate outside a pair. */
  unstorable: fc
    .tuple(text(0, 8), fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff'), text(0, 8))
    // A high surrogate before a low one would make a pair: the parts are kept apart by a letter.
    .map(([before, bad, after]) => `${before}x${bad}x${after}`),
};

const MINUS_ZERO = '\u2603minus-zero\u2603';

/** The JSON text of a value as a client may write it: -0 stays `-0` (JSON.stringify writes 0). */
export function wireJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) => (Object.is(member, -0) ? MINUS_ZERO : member)).replaceAll(
    `"${MINUS_ZERO}"`,
    '-0',
  );
}

/** The component schemas a body sent to a destination of `type` reads in place of the spec's: its type's config keys. */
export function configOverrides(type: string): Record<string, Schema> {
  const found = Object.entries(spec.components.schemas).find(([, schema]) => schema['x-destination-type'] === type);
  return found ? { DestinationConfigUpdate: partialOf(found[0]) } : {};
}
