// Compares two versions of a JSON Schema in the direction it flows: what a client sends (requests:
// tightening breaks) and what it receives (responses: removing, loosening a promise or adding null
// breaks). Schemas are compared after dereferencing.
export type Schema = Record<string, unknown>;

export interface Change {
  breaking: boolean;
  where: string;
  what: string;
}

function types(schema: Schema): Set<string> {
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (alternatives) return new Set(alternatives.flatMap((alternative) => [...types(alternative)]));
  if (Array.isArray(schema.type)) return new Set(schema.type as string[]);
  if (typeof schema.type === 'string') return new Set([schema.type]);
  return new Set();
}

/** The non-null branch of `oneOf: [X, {type: null}]`, or the schema itself. */
function core(schema: Schema): Schema {
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (!alternatives) return schema;
  const nonNull = alternatives.filter((a) => !(types(a).size === 1 && types(a).has('null')));
  return nonNull.length === 1 && nonNull[0] ? core(nonNull[0]) : schema;
}

/** The non-null alternatives of a `oneOf` or `anyOf`; none for any other schema. */
function alternatives(schema: Schema): Schema[] {
  const listed = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  return (listed ?? []).filter((a) => !(types(a).size === 1 && types(a).has('null')));
}

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];

export function compareSchemas(
  before: Schema | undefined,
  after: Schema | undefined,
  where: string,
  direction: 'request' | 'response',
  changes: Change[],
): void {
  if (!before || !after) return;
  const [typesBefore, typesAfter] = [types(before), types(after)];
  const withoutNull = (set: Set<string>) =>
    [...set]
      .filter((t) => t !== 'null')
      .sort()
      .join('|');
  if (typesBefore.size > 0 && typesAfter.size > 0 && withoutNull(typesBefore) !== withoutNull(typesAfter)) {
    changes.push({
      breaking: true,
      where,
      what: `type changed from ${withoutNull(typesBefore)} to ${withoutNull(typesAfter)}`,
    });
  }
  if (direction === 'response' && !typesBefore.has('null') && typesAfter.has('null'))
    changes.push({ breaking: true, where, what: 'made nullable' });
  if (direction === 'request' && typesBefore.has('null') && !typesAfter.has('null'))
    changes.push({ breaking: true, where, what: 'null no longer accepted' });

  const [b, a] = [core(before), core(after)];
  const [alternativesBefore, alternativesAfter] = [alternatives(b), alternatives(a)];
  if (alternativesBefore.length > 1 || alternativesAfter.length > 1) {
    if (alternativesBefore.length === alternativesAfter.length) {
      for (const [index, alternative] of alternativesBefore.entries()) {
        compareSchemas(alternative, alternativesAfter[index], `${where}(alternative ${index + 1})`, direction, changes);
      }
    } else {
      changes.push({
        breaking: true,
        where,
        what: `alternatives (oneOf) changed from ${Math.max(1, alternativesBefore.length)} to ${Math.max(1, alternativesAfter.length)}`,
      });
    }
    return;
  }
  if (direction === 'request') {
    for (const key of LOWER_BOUNDS) {
      const [was, is] = [b[key] as number | undefined, a[key] as number | undefined];
      if (is !== undefined && (was === undefined || is > was))
        changes.push({ breaking: true, where, what: `${key} tightened from ${was ?? 'none'} to ${is}` });
      else if (was !== undefined && (is === undefined || is < was))
        changes.push({ breaking: false, where, what: `${key} loosened from ${was} to ${is ?? 'none'}` });
    }
    for (const key of UPPER_BOUNDS) {
      const [was, is] = [b[key] as number | undefined, a[key] as number | undefined];
      if (is !== undefined && (was === undefined || is < was))
        changes.push({ breaking: true, where, what: `${key} tightened from ${was ?? 'none'} to ${is}` });
      else if (was !== undefined && (is === undefined || is > was))
        changes.push({ breaking: false, where, what: `${key} loosened from ${was} to ${is ?? 'none'}` });
    }
    if (a.pattern !== undefined && a.pattern !== b.pattern)
      changes.push({
        breaking: true,
        where,
        what: `pattern ${b.pattern === undefined ? 'added' : 'changed'}: ${String(a.pattern)}`,
      });
    if (Array.isArray(b.enum) && Array.isArray(a.enum)) {
      for (const value of b.enum)
        if (!a.enum.includes(value))
          changes.push({ breaking: true, where, what: `enum value ${JSON.stringify(value)} removed` });
      for (const value of a.enum)
        if (!b.enum.includes(value))
          changes.push({ breaking: false, where, what: `enum value ${JSON.stringify(value)} added` });
    } else if (Array.isArray(a.enum) && !Array.isArray(b.enum))
      changes.push({ breaking: true, where, what: 'restricted to an enum' });
    if (b.additionalProperties !== false && a.additionalProperties === false)
      changes.push({ breaking: true, where, what: 'unknown properties now refused' });
  }

  const [propsBefore, propsAfter] = [
    (b.properties ?? {}) as Record<string, Schema>,
    (a.properties ?? {}) as Record<string, Schema>,
  ];
  const [requiredBefore, requiredAfter] = [
    new Set((b.required ?? []) as string[]),
    new Set((a.required ?? []) as string[]),
  ];
  for (const name of Object.keys(propsBefore)) {
    const path = `${where}.${name}`;
    if (!(name in propsAfter)) {
      changes.push({
        breaking: direction === 'response' || b.additionalProperties === false || a.additionalProperties === false,
        where: path,
        what: 'property removed',
      });
      continue;
    }
    if (direction === 'response' && requiredBefore.has(name) && !requiredAfter.has(name))
      changes.push({ breaking: true, where: path, what: 'made optional' });
    if (direction === 'request' && !requiredBefore.has(name) && requiredAfter.has(name))
      changes.push({ breaking: true, where: path, what: 'made required' });
    compareSchemas(propsBefore[name], propsAfter[name], path, direction, changes);
  }
  for (const name of Object.keys(propsAfter)) {
    if (name in propsBefore) continue;
    const required = requiredAfter.has(name);
    changes.push({
      breaking: direction === 'request' && required,
      where: `${where}.${name}`,
      what: `${required ? 'required ' : ''}property added`,
    });
  }
  if (b.items && a.items) compareSchemas(b.items as Schema, a.items as Schema, `${where}[]`, direction, changes);
}
