// Compares two versions of a JSON Schema in the direction it flows: what a client sends (requests:
// tightening breaks) and what it receives (responses: removing, loosening a promise or adding null
// breaks). Schemas are compared after dereferencing, so that a component used on both sides is
// judged where it is used. Every finding is a rule of spec-diff-rules.ts.
import { type Level, RULES, type SchemaSubject } from './rules.js';

export type Schema = Record<string, unknown>;

export interface Change {
  id: string;
  level: Level;
  /** `GET /keys/{hash}`, or undefined for a change of the whole document. */
  operation?: string;
  where: string;
  what: string;
}

/** Records findings: the level comes from the rule, and an unknown rule is a bug of this tool. */
export class Findings {
  readonly changes: Change[] = [];
  add(id: string, operation: string | undefined, where: string, what: string): void {
    const rule = RULES[id];
    if (!rule) throw new Error(`spec:diff has no rule ${id}`);
    this.changes.push({ id, level: rule.level, ...(operation !== undefined && { operation }), where, what });
  }
}

export interface SchemaPlace {
  side: 'request' | 'response';
  /** What the schema at the top describes: a parameter's value or a body. */
  top: 'parameter' | 'body';
  operation: string;
}

function types(schema: Schema): Set<string> {
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (alternatives) return new Set(alternatives.flatMap((alternative) => [...types(alternative)]));
  if (Array.isArray(schema.type)) return new Set(schema.type as string[]);
  if (typeof schema.type === 'string') return new Set([schema.type]);
  return new Set();
}

const isNull = (schema: Schema) => types(schema).size === 1 && types(schema).has('null');

/** The non-null branch of `oneOf: [X, {type: null}]`, or the schema itself. */
function core(schema: Schema): Schema {
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (!alternatives) return schema;
  const nonNull = alternatives.filter((a) => !isNull(a));
  return nonNull.length === 1 && nonNull[0] ? core(nonNull[0]) : schema;
}

/** The non-null alternatives of a `oneOf` or `anyOf`; none for any other schema. */
function alternatives(schema: Schema): Schema[] {
  return (((schema.oneOf ?? schema.anyOf) as Schema[] | undefined) ?? []).filter((a) => !isNull(a));
}

// Each bound: its keyword, the name of its rules, and whether a larger value admits more.
const BOUNDS: [keyword: string, rule: string, largerAdmitsMore: boolean][] = [
  ['maximum', 'max', true],
  ['exclusiveMaximum', 'exclusive-max', true],
  ['maxLength', 'max-length', true],
  ['maxItems', 'max-items', true],
  ['minimum', 'min', false],
  ['exclusiveMinimum', 'exclusive-min', false],
  ['minLength', 'min-length', false],
  ['minItems', 'min-items', false],
];

export function compareSchemas(
  before: Schema | undefined,
  after: Schema | undefined,
  place: SchemaPlace,
  where: string,
  findings: Findings,
  depth = 0,
): void {
  if (!before || !after) return;
  const subject: SchemaSubject =
    place.side === 'request'
      ? place.top === 'parameter'
        ? 'request-parameter'
        : depth === 0
          ? 'request-body'
          : 'request-property'
      : depth === 0
        ? 'response-body'
        : 'response-property';
  const found = (kind: string, what: string) => findings.add(`${subject}-${kind}`, place.operation, where, what);

  const [typesBefore, typesAfter] = [types(before), types(after)];
  const withoutNull = (set: Set<string>) =>
    [...set]
      .filter((t) => t !== 'null')
      .sort()
      .join('|');
  if (typesBefore.size > 0 && typesAfter.size > 0 && withoutNull(typesBefore) !== withoutNull(typesAfter))
    found('type-changed', `type changed from ${withoutNull(typesBefore)} to ${withoutNull(typesAfter)}`);
  if (!typesBefore.has('null') && typesAfter.has('null') && typesBefore.size > 0)
    found('became-nullable', 'null now allowed');
  if (place.side === 'request' && typesBefore.has('null') && !typesAfter.has('null') && typesAfter.size > 0)
    found('became-not-nullable', 'null no longer accepted');

  const [b, a] = [core(before), core(after)];
  const [alternativesBefore, alternativesAfter] = [alternatives(b), alternatives(a)];
  if (alternativesBefore.length > 1 || alternativesAfter.length > 1) {
    const [was, is] = [Math.max(1, alternativesBefore.length), Math.max(1, alternativesAfter.length)];
    if (was === is) {
      for (const [index, alternative] of alternativesBefore.entries())
        compareSchemas(
          alternative,
          alternativesAfter[index],
          place,
          `${where}(alternative ${index + 1})`,
          findings,
          depth,
        );
    } else {
      // One schema split into alternatives, or alternatives merged into one: each alternative is
      // compared with the single schema, so that what it now requires or no longer promises shows.
      if (was === 1)
        for (const [index, alternative] of alternativesAfter.entries())
          compareSchemas(b, alternative, place, `${where}(alternative ${index + 1})`, findings, depth);
      if (is === 1)
        for (const [index, alternative] of alternativesBefore.entries())
          compareSchemas(alternative, a, place, `${where}(alternative ${index + 1})`, findings, depth);
      const kind = subject.endsWith('-body') ? subject : subject.replace('-parameter', '-property');
      findings.add(
        `${kind}-one-of-${is > was ? 'added' : 'removed'}`,
        place.operation,
        where,
        `alternatives (oneOf) changed from ${was} to ${is}`,
      );
    }
    return;
  }

  const request = place.side === 'request';
  for (const [keyword, rule, largerAdmitsMore] of BOUNDS) {
    const [was, is] = [b[keyword] as number | undefined, a[keyword] as number | undefined];
    if (was === is) continue;
    const admitsMore = is === undefined || (was !== undefined && is > was === largerAdmitsMore);
    const what = `${keyword} ${was ?? 'none'} -> ${is ?? 'none'}`;
    const direction = largerAdmitsMore
      ? admitsMore
        ? 'increased'
        : 'decreased'
      : admitsMore
        ? 'decreased'
        : 'increased';
    if (request)
      found(was === undefined && RULES[`${subject}-${rule}-set`] ? `${rule}-set` : `${rule}-${direction}`, what);
    else if (admitsMore) found(`${rule}-${direction}`, what);
  }

  if (request && a.pattern !== b.pattern) {
    if (b.pattern === undefined) found('pattern-added', `pattern added: ${String(a.pattern)}`);
    else if (a.pattern === undefined) found('pattern-removed', `pattern removed: ${String(b.pattern)}`);
    else found('pattern-changed', `pattern changed from ${String(b.pattern)} to ${String(a.pattern)}`);
  }
  if (Array.isArray(b.enum) && Array.isArray(a.enum)) {
    for (const value of b.enum)
      if (!a.enum.includes(value)) found('enum-value-removed', `enum value ${JSON.stringify(value)} removed`);
    for (const value of a.enum)
      if (!b.enum.includes(value)) found('enum-value-added', `enum value ${JSON.stringify(value)} added`);
  } else if (request && Array.isArray(a.enum)) found('became-enum', 'restricted to an enum');
  if (subject === 'request-parameter' && JSON.stringify(b.default) !== JSON.stringify(a.default)) {
    const change = b.default === undefined ? 'added' : a.default === undefined ? 'removed' : 'changed';
    found(`default-value-${change}`, `default ${JSON.stringify(b.default)} -> ${JSON.stringify(a.default)}`);
  }
  if (request && place.top === 'body' && b.additionalProperties !== false && a.additionalProperties === false)
    findings.add(
      `${depth === 0 ? 'request-body' : 'request-property'}-additional-properties-refused`,
      place.operation,
      where,
      'unknown properties now refused',
    );

  compareProperties(b, a, place, where, findings, depth);
  if (b.items && a.items)
    compareSchemas(b.items as Schema, a.items as Schema, place, `${where}[]`, findings, depth + 1);
}

function compareProperties(
  b: Schema,
  a: Schema,
  place: SchemaPlace,
  where: string,
  findings: Findings,
  depth: number,
): void {
  const [propsBefore, propsAfter] = [
    (b.properties ?? {}) as Record<string, Schema>,
    (a.properties ?? {}) as Record<string, Schema>,
  ];
  const [requiredBefore, requiredAfter] = [
    new Set((b.required ?? []) as string[]),
    new Set((a.required ?? []) as string[]),
  ];
  const add = (id: string, name: string, what: string) => findings.add(id, place.operation, `${where}.${name}`, what);
  const request = place.side === 'request';
  for (const name of Object.keys(propsBefore)) {
    if (!(name in propsAfter)) {
      if (request) add('request-property-removed', name, 'property removed');
      else
        add(
          requiredBefore.has(name) ? 'response-required-property-removed' : 'response-optional-property-removed',
          name,
          'property removed',
        );
      continue;
    }
    const [wasRequired, isRequired] = [requiredBefore.has(name), requiredAfter.has(name)];
    if (wasRequired !== isRequired)
      add(
        `${request ? 'request' : 'response'}-property-became-${isRequired ? 'required' : 'optional'}`,
        name,
        isRequired ? 'made required' : 'made optional',
      );
    compareSchemas(propsBefore[name], propsAfter[name], place, `${where}.${name}`, findings, depth + 1);
  }
  for (const name of Object.keys(propsAfter)) {
    if (name in propsBefore) continue;
    const required = requiredAfter.has(name);
    const id = request
      ? `new-${required ? 'required' : 'optional'}-request-property`
      : `response-${required ? 'required' : 'optional'}-property-added`;
    add(id, name, `${required ? 'required ' : ''}property added`);
  }
}
