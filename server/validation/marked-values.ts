// The values of a request body that its schema marks with a keyword of the contract's own (such as
// `x-linear-time`), for the rules no JSON Schema keyword can say. A value is found where it passes
// the schema that marks it: a `oneOf` is followed into the one branch the value passes, so a rule
// meets only values of the shape it was written for, whatever else of the body fails.
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { escapePointer, isObject, type JsonObject, type OpenApiDocument, validatorAt } from '../spec.js';
import { schemaFinder } from './spec-schemas.js';

export interface MarkedValue {
  /** Where the value is, named as the envelope names fields. */
  path: string;
  value: unknown;
}

export type MarkedValues = (pointer: string, value: unknown, path: string) => MarkedValue[];

/** A finder of the values marked with `keyword` under a schema of the spec. */
export function markedValues(spec: OpenApiDocument, ajv: Ajv2020, keyword: string): MarkedValues {
  const schemaAt = schemaFinder(spec);
  const marks = new Map<string, boolean>();
  /** Whether the schema at `pointer`, or any below it, carries the keyword. */
  const reachesMark = (pointer: string, seen = new Set<string>()): boolean => {
    const known = marks.get(pointer);
    if (known !== undefined) return known;
    const { pointer: at, schema } = schemaAt(pointer);
    if (seen.has(at)) return false;
    seen.add(at);
    const found = schema[keyword] === true || childPointers(at, schema).some((child) => reachesMark(child, seen));
    marks.set(pointer, found);
    return found;
  };

  const find = (pointer: string, value: unknown, path: string, into: MarkedValue[]): void => {
    if (!reachesMark(pointer)) return;
    const { pointer: at, schema } = schemaAt(pointer);
    if (schema[keyword] === true) {
      if (validatorAt(ajv, at)(value)) into.push({ path, value });
      return;
    }
    if (Array.isArray(schema.oneOf)) {
      const branch = schema.oneOf.findIndex((_, index) => validatorAt(ajv, `${at}/oneOf/${index}`)(value));
      if (branch >= 0) find(`${at}/oneOf/${branch}`, value, path, into);
      return;
    }
    if (isObject(value) && isObject(schema.properties)) {
      for (const [name, child] of Object.entries(value))
        if (Object.hasOwn(schema.properties, name))
          find(`${at}/properties/${escapePointer(name)}`, child, `${path}/${escapePointer(name)}`, into);
    }
    if (Array.isArray(value) && isObject(schema.items))
      value.forEach((item, index) => {
        find(`${at}/items`, item, `${path}/${index}`, into);
      });
  };
  return (pointer, value, path) => {
    const into: MarkedValue[] = [];
    find(pointer, value, path, into);
    return into;
  };
}

function childPointers(at: string, schema: JsonObject): string[] {
  const properties = isObject(schema.properties) ? Object.keys(schema.properties) : [];
  return [
    ...properties.map((name) => `${at}/properties/${escapePointer(name)}`),
    ...(isObject(schema.items) ? [`${at}/items`] : []),
    ...(Array.isArray(schema.oneOf) ? schema.oneOf.map((_, index) => `${at}/oneOf/${index}`) : []),
  ];
}
