// Explains why a value fails its schema in openapi.yaml, field by field, the way a person would
// put it. Ajv alone reports every branch of a `oneOf`: for a filter rule `{operator: 'gt',
// value: 'x'}` it says that the value must be a number, that the operator must be `contains`, that
// it must be `regex`... Here a `oneOf` whose branches are told apart by the value of one property
// (a discriminating enum, such as `operator`) is explained by the branch that value selects, and a
// nullable `oneOf` by its non-null branch. Everything else is Ajv's own verdict, level by level.
import type { Ajv2020, ErrorObject } from 'ajv/dist/2020.js';
import type { FieldError } from '../domain/field-errors.js';
import {
  escapePointer,
  isObject,
  type JsonObject,
  type OpenApiDocument,
  unescapePointer,
  validatorAt,
} from '../spec.js';
import { memoized, schemaFinder } from './spec-schemas.js';

type Schema = JsonObject;

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function describeFailure(error: ErrorObject, path: string): FieldError {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: `${path}/${escapePointer(String(params.missingProperty))}`, message: 'is required' };
    case 'additionalProperties':
      return {
        path: `${path}/${escapePointer(String(params.additionalProperty))}`,
        message: 'is not a known property',
      };
    case 'enum':
      return { path, message: `must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}` };
    default:
      return {
        path: error.propertyName === undefined ? path : `${path}/${escapePointer(error.propertyName)}`,
        message: error.message ?? 'is invalid',
      };
  }
}

export interface SchemaExplainer {
  /**
   * Every failing field of `value` against the schema at `pointer` (`#/paths/...`), under `path`;
   * none when it is valid. Past `limit` fields it stops looking: more than `limit` in the answer
   * means that there are more than `limit`, not how many.
   */
  explain(pointer: string, value: unknown, path: string, limit?: number): FieldError[];
}

/** Ajv's errors of a value (at instance path `base`): its own, and those of each child by its key. */
interface SortedErrors {
  own: ErrorObject[];
  children: Map<string, ErrorObject[]>;
}

function sortErrors(errors: readonly ErrorObject[], base: string): SortedErrors {
  const sorted: SortedErrors = { own: [], children: new Map() };
  // Ajv reports a child's errors one after another: most errors fall in the group of the one before.
  let current: { prefix: string; errors: ErrorObject[] } | undefined;
  for (const error of errors) {
    const path = error.instancePath;
    if (path.length === base.length) {
      sorted.own.push(error);
      continue;
    }
    if (
      current &&
      path.startsWith(current.prefix) &&
      (path.length === current.prefix.length || path[current.prefix.length] === '/')
    ) {
      current.errors.push(error);
      continue;
    }
    const end = path.indexOf('/', base.length + 1);
    const prefix = end < 0 ? path : path.slice(0, end);
    const escaped = prefix.slice(base.length + 1);
    const key = unescapePointer(escaped);
    let group = sorted.children.get(key);
    if (!group) {
      group = [];
      sorted.children.set(key, group);
    }
    group.push(error);
    current = { prefix, errors: group };
  }
  return sorted;
}

export function schemaExplainer(spec: OpenApiDocument, ajv: Ajv2020): SchemaExplainer {
  /** The fields one explain() has found so far, against its limit; each level adds what it made itself. */
  interface Tally {
    found: number;
    readonly limit: number;
  }
  const made = (tally: Tally, errors: FieldError[]): FieldError[] => {
    tally.found += errors.length;
    return errors;
  };

  const schemaAt = schemaFinder(spec);

  const validatorOf = memoized((pointer: string) => validatorAt(ajv, pointer));

  function admitsType(schema: Schema, value: unknown): boolean {
    if (schema.type === undefined) return true;
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    const type = jsonType(value);
    return types.includes(type) || (type === 'integer' && types.includes('number'));
  }

  /**
   * The property whose enum tells the branches apart: every branch declares one, and not every
   * branch the same (an enum shared by all tells none apart).
   */
  function discriminatingProperty(branches: Schema[]): string | undefined {
    const [first] = branches;
    return Object.keys((first?.properties ?? {}) as Record<string, Schema>).find((name) => {
      const enums = branches.map((b) => ((b.properties ?? {}) as Record<string, Schema>)[name]?.enum);
      return enums.every(Array.isArray) && new Set(enums.map((e) => JSON.stringify(e))).size > 1;
    });
  }

  const branchesAt = memoized((pointer: string) =>
    ((schemaAt(pointer).schema.oneOf ?? []) as unknown[]).map((_, index) => schemaAt(`${pointer}/oneOf/${index}`)),
  );

  function explainOneOf(pointer: string, value: unknown, path: string, tally: Tally): FieldError[] {
    const branches = branchesAt(pointer);
    const fitting = branches.filter((branch) => admitsType(branch.schema, value));
    if (fitting.length === 0) {
      const types = [...new Set(branches.flatMap((b) => [b.schema.type ?? []].flat() as string[]))];
      return made(tally, [{ path, message: `must be ${types.join(' or ')}` }]);
    }
    if (fitting.length === 1 && fitting[0]) return explain(fitting[0].pointer, value, path, tally);
    const tag = isObject(value) ? discriminatingProperty(fitting.map((b) => b.schema)) : undefined;
    if (tag === undefined || !isObject(value)) return rawErrors(pointer, value, path, tally);
    const tagValue = value[tag];
    const enumOf = (branch: Schema) => ((branch.properties as Record<string, Schema>)[tag]?.enum ?? []) as unknown[];
    // Properties that every branch declares alike need no word about the tag; the others do.
    const sameEverywhere = (name: string) => {
      const schemas = fitting.map((b) => JSON.stringify((b.schema.properties as Record<string, Schema>)[name]));
      return schemas.every((s) => s !== undefined && s === schemas[0]);
    };
    const chosen = fitting.find((branch) => enumOf(branch.schema).includes(tagValue));
    if (!chosen) {
      const allowed = fitting.flatMap((branch) => enumOf(branch.schema)).map(String);
      const tagError = {
        path: `${path}/${escapePointer(tag)}`,
        message: tagValue === undefined ? 'is required' : `must be one of: ${allowed.join(', ')}`,
      };
      // The tag is not among them: its enum differs from one branch to another.
      const common = Object.entries(value).filter(([name]) => sameEverywhere(name));
      const first = fitting[0]?.pointer ?? pointer;
      return [
        ...made(tally, [tagError]),
        ...common.flatMap(([name, child]) =>
          explain(`${first}/properties/${escapePointer(name)}`, child, `${path}/${escapePointer(name)}`, tally),
        ),
      ];
    }
    const context = ` with ${tag} ${String(tagValue)}`;
    return explain(chosen.pointer, value, path, tally).map((error) => {
      const property = unescapePointer(error.path.slice(path.length + 1).split('/')[0] ?? '');
      // No error names the tag: its value is one of the chosen branch's enum.
      if (error.path === path || sameEverywhere(property)) return error;
      const message = error.message === 'is not a known property' ? 'is not allowed' : error.message;
      return { path: error.path, message: `${message}${context}` };
    });
  }

  function rawErrors(pointer: string, value: unknown, path: string, tally: Tally): FieldError[] {
    const validate = validatorOf(pointer);
    validate(value);
    const described = (validate.errors ?? [])
      .filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'propertyNames')
      .map((e) => describeFailure(e, `${path}${e.instancePath}`));
    // Branches that fail alike say so once.
    return made(tally, [...new Map(described.map((e) => [`${e.path}\n${e.message}`, e])).values()]);
  }

  /**
   * `known` is what a validation of the parent found under this value: the errors of one subschema
   * are the same whether Ajv meets it alone or inside its parent, so each level validates only where
   * the schema changes (the top, and the branch a `oneOf` is explained by), not the whole subtree again.
   */
  function explain(
    pointer: string,
    value: unknown,
    path: string,
    tally: Tally,
    known?: { errors: readonly ErrorObject[]; base: string },
  ): FieldError[] {
    let validated = known;
    if (!validated) {
      const validate = validatorOf(pointer);
      if (validate(value)) return [];
      validated = { errors: validate.errors ?? [], base: '' };
    }
    const { errors: ajvErrors, base } = validated;
    const resolved = schemaAt(pointer);
    const { schema } = resolved;
    if (Array.isArray(schema.oneOf)) return explainOneOf(resolved.pointer, value, path, tally);
    if (schema.anyOf !== undefined || schema.allOf !== undefined) return rawErrors(pointer, value, path, tally);
    const { own, children } = sortErrors(ajvErrors, base);
    // This level's own failures (type, bounds, required, unknown properties), then each child's.
    // `propertyNames` repeats, vaguely, the error of the name that fails it.
    const ownErrors = own.filter((e) => e.keyword !== 'propertyNames');
    const errors = made(
      tally,
      ownErrors.map((e) => describeFailure(e, path)),
    );
    if (ownErrors.some((e) => e.keyword === 'type')) return errors;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const explainChild = (childPointer: string, key: string, child: unknown) => {
      const childErrors = children.get(key);
      if (childErrors && tally.found <= tally.limit)
        errors.push(
          ...explain(childPointer, child, `${path}/${escapePointer(key)}`, tally, {
            errors: childErrors,
            base: `${base}/${escapePointer(key)}`,
          }),
        );
    };
    if (isObject(value)) {
      for (const [name, child] of Object.entries(value)) {
        if (Object.hasOwn(properties, name))
          explainChild(`${resolved.pointer}/properties/${escapePointer(name)}`, name, child);
        else if (typeof schema.additionalProperties === 'object')
          explainChild(`${resolved.pointer}/additionalProperties`, name, child);
      }
    }
    if (Array.isArray(value) && typeof schema.items === 'object') {
      for (const [index, item] of value.entries()) explainChild(`${resolved.pointer}/items`, String(index), item);
    }
    return errors;
  }

  return {
    explain: (pointer, value, path, limit = Number.POSITIVE_INFINITY) =>
      explain(pointer, value, path, { found: 0, limit }),
  };
}
