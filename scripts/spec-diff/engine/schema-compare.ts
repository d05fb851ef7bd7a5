// Compares two versions of a JSON Schema in the direction it flows: what a client sends (requests:
// tightening breaks) and what it receives (responses: removing, loosening a promise or adding null
// breaks). Schemas are compared after dereferencing, so that a component used on both sides is
// judged where it is used. Each change is named `<subject>-<kind>` as oasdiff names it, or by a
// project rule where oasdiff has none for the subject (rules.ts), or not reported.
import { type Change, Findings } from './findings.js';
import { compareKeywords } from './schema-keywords.js';
import {
  type Depth,
  inside,
  type Report,
  reporterAt,
  type SchemaComparison,
  type SchemaPlace,
} from './schema-place.js';
import { compareProperties } from './schema-properties.js';
import { sameSchema } from './schema-refs.js';
import {
  core,
  isNullable,
  isTypeList,
  type Schema,
  typeChangeKind,
  typeOrFormatBreaks,
  typesOf,
} from './schema-types.js';

export type { Change, Depth, Schema, SchemaPlace };
export { Findings };

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null;

const isJson = (mediaType: string | undefined) =>
  mediaType === undefined || mediaType === 'application/json' || mediaType.endsWith('+json');

/** Compares the schema at the top of a place: a parameter's, or a body's of a media type. */
export function compareSchemas(
  before: Schema | undefined,
  after: Schema | undefined,
  place: SchemaPlace,
  where: string,
  findings: Findings,
): void {
  compareAt(before, after, { place, where, findings, depth: { level: 0 }, compare: compareAt });
}

function compareAt(before: Schema | undefined, after: Schema | undefined, at: SchemaComparison): void {
  if (!before || !after || sameSchema(before, after)) return;
  const { place, depth, where } = at;
  const report = reporterAt(at);
  const strong = place.top === 'body' && isJson(place.mediaType);
  let typeKind = typeChangeKind(before, after, place.side, strong);
  if (typeKind?.startsWith('type-') && place.top === 'parameter') {
    // A parameter is text on the wire; a property of a parameter's object may be read as JSON or as
    // text, breaking in one only warning. Neither lets off a type gained beside the old ones.
    const breaks = (asJson: boolean) => typeOrFormatBreaks(before, after, asJson);
    if (depth.level === 0) typeKind = breaks(false) ? 'type-changed' : 'type-generalized';
    else
      typeKind =
        breaks(true) !== breaks(false) ? 'type-changed' : breaks(true) ? 'type-specialized' : 'type-generalized';
  }
  if (typeKind) report(typeKind, `type or format changed: ${describeType(before)} -> ${describeType(after)}`);
  const [nullBefore, nullAfter] = [isNullable(before), isNullable(after)];
  if (!nullBefore && nullAfter) report('became-nullable', 'null now allowed');
  if (nullBefore && !nullAfter) report('became-not-nullable', 'null no longer allowed');

  const [b, a] = [core(before), core(after)];
  if (place.top === 'body' && depth.level === 0 && !b.oneOf && Array.isArray(a.oneOf)) {
    // The body's properties moved into the alternatives: one finding, not one per property.
    report('wrapped-in-one-of', `wrapped in a oneOf of ${a.oneOf.length}`);
    return;
  }
  compareKeywords(b, a, at, !isTypeList(b) && !isTypeList(a));
  if (place.top === 'parameter' && depth.level === 0) compareItemsMaxItems(b, a, report);
  compareProperties(b, a, at);
  if (b.items && a.items) compareAt(b.items as Schema, a.items as Schema, inside(at, `${where}[]`));
  // A map's values: the schema of every property the object does not name.
  const [valuesBefore, valuesAfter] = [b.additionalProperties, a.additionalProperties];
  if (isSchema(valuesBefore) && isSchema(valuesAfter))
    compareAt(valuesBefore, valuesAfter, inside(at, `${where}(additionalProperties)`));
}

/**
 * A parameter's `maxItems` written on its items rather than on the array: oasdiff reads it as the
 * parameter's own where the parameter's did not change.
 */
function compareItemsMaxItems(b: Schema, a: Schema, report: Report): void {
  const maxItems = (schema: Schema) => (isSchema(schema.items) ? schema.items.maxItems : undefined);
  const [was, is] = [maxItems(b), maxItems(a)];
  if (b.maxItems !== a.maxItems || typeof was !== 'number' || typeof is !== 'number' || was === is) return;
  report(`max-items-${is > was ? 'increased' : 'decreased'}`, `items' maxItems ${was} -> ${is}`);
}

function describeType(schema: Schema): string {
  const type = typesOf(schema).join('|') || 'any';
  const format = core(schema).format;
  return format ? `${type}/${String(format)}` : type;
}
