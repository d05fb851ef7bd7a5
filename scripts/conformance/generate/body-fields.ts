// Every field of a request body schema, reached the way a client writes it: each property, each
// map value, the first item of each array, each alternative of a union. A field carries the
// smallest valid body around it, so that a value put in its place is the only thing that can be
// wrong with the body.
import { escapePointer, type JsonObject } from '../../../server/spec.js';
import { alternativesOf, propertyNamesOf, type Resolve, sampleOf } from './samples.js';

/** What a union's field checks itself (the types its alternatives take), and what each alternative checks. */
export type FieldRole = 'union' | 'alternative' | 'plain';

export interface BodyField {
  /** Where the field is, under the body: `/filter_rules/groups/0/rules/0/value` (the body itself is ``). */
  pointer: string;
  /** The field's schema, `$ref` followed. */
  schema: JsonObject;
  role: FieldRole;
  /** The alternative of a union that holds it, by title, for the label. */
  alternative?: string;
  /** The field's smallest valid value. */
  sample: unknown;
  /** The whole body as JSON text, with `text` (JSON, as written on the wire) in this field's place. */
  put(text: string): string;
}

const MAX_DEPTH = 12;

/** A JSON object's text: `base` without `key`, then `key` holding `text` as written. */
function objectText(base: Record<string, unknown>, key: string, text: string): string {
  const members = Object.entries(base)
    .filter(([name]) => name !== key)
    .map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`);
  return `{${[...members, `${JSON.stringify(key)}:${text}`].join(',')}}`;
}

function walk(
  schema: JsonObject,
  pointer: string,
  put: (text: string) => string,
  resolve: Resolve,
  fields: BodyField[],
  depth: number,
  /** Set for an alternative of a union: its title, or `true` when it has none. */
  alternative?: string | true,
): void {
  if (depth > MAX_DEPTH) return;
  const target = resolve(schema);
  const alternatives = alternativesOf(target, resolve);
  const real = alternatives.filter((candidate) => candidate.type !== 'null');
  const label = typeof alternative === 'string' ? alternative : undefined;
  if (alternatives.length > 1) {
    fields.push({ pointer, schema: target, role: 'union', sample: sampleOf(target, resolve), put, alternative: label });
    for (const candidate of real)
      walk(candidate, pointer, put, resolve, fields, depth + 1, (candidate.title as string | undefined) ?? true);
    return;
  }
  const sample = sampleOf(target, resolve);
  fields.push({
    pointer,
    schema: target,
    role: alternative ? 'alternative' : 'plain',
    sample,
    put,
    alternative: label,
  });
  const properties = target.properties as Record<string, JsonObject> | undefined;
  if (properties) {
    const base = (sample ?? {}) as Record<string, unknown>;
    for (const [key, property] of Object.entries(properties))
      walk(
        property,
        `${pointer}/${escapePointer(key)}`,
        (text) => put(objectText(base, key, text)),
        resolve,
        fields,
        depth + 1,
      );
  }
  const additional = target.additionalProperties;
  if (!properties && typeof additional === 'object' && additional !== null) {
    const [name = 'key'] = propertyNamesOf(target, 1);
    const base = (sample ?? {}) as Record<string, unknown>;
    walk(
      additional as JsonObject,
      `${pointer}/${escapePointer(name)}`,
      (text) => put(objectText(base, name, text)),
      resolve,
      fields,
      depth + 1,
    );
  }
  const items = target.items as JsonObject | undefined;
  if (items) {
    const others = ((sample as unknown[] | undefined) ?? []).slice(1).map((member) => JSON.stringify(member));
    walk(items, `${pointer}/0`, (text) => put(`[${[text, ...others].join(',')}]`), resolve, fields, depth + 1);
  }
}

/** The fields of a body schema, the body itself first. */
export function bodyFields(schema: JsonObject, resolve: Resolve): BodyField[] {
  const fields: BodyField[] = [];
  walk(schema, '', (text) => text, resolve, fields, 0);
  return fields;
}
