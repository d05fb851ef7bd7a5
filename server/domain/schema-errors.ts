// Explains why a value fails its schema in openapi.yaml, field by field, the way a person would
// put it. Ajv alone reports every branch of a `oneOf`: for a filter rule `{operator: 'gt',
// value: 'x'}` it says that the value must be a number, that the operator must be `contains`, that
// it must be `regex`... Here a `oneOf` whose branches are told apart by the value of one property
// (a discriminating enum, such as `operator`) is explained by the branch that value selects, and a
// nullable `oneOf` by its non-null branch. Everything else is Ajv's own verdict, level by level.
import type { Ajv2020, ErrorObject } from 'ajv/dist/2020.js';
import { escapePointer, type JsonObject, nodeAt, type OpenApiDocument, SPEC_SCHEMA_ID } from '../spec.js';
import type { FieldError } from './field-errors.js';

type Schema = JsonObject;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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
      return { path: `${path}/${String(params.missingProperty)}`, message: 'is required' };
    case 'additionalProperties':
      return { path: `${path}/${String(params.additionalProperty)}`, message: 'is not a known property' };
    case 'enum':
      return { path, message: `must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}` };
    default:
      return {
        path: error.propertyName === undefined ? path : `${path}/${error.propertyName}`,
        message: error.message ?? 'is invalid',
      };
  }
}

export interface SchemaExplainer {
  /** Every failing field of `value` against the schema at `pointer` (`#/paths/...`), under `path`; none when it is valid. */
  explain(pointer: string, value: unknown, path: string): FieldError[];
}

export function schemaExplainer(spec: OpenApiDocument, ajv: Ajv2020): SchemaExplainer {
  function schemaAt(pointer: string): { pointer: string; schema: Schema } {
    const schema = nodeAt(spec, pointer);
    if (typeof schema !== 'object' || schema === null) throw new Error(`openapi.yaml has no schema at ${pointer}`);
    const ref = (schema as Schema).$ref;
    return typeof ref === 'string' ? schemaAt(ref) : { pointer, schema: schema as Schema };
  }

  function validatorAt(pointer: string) {
    const validate = ajv.getSchema(`${SPEC_SCHEMA_ID}${pointer}`);
    if (!validate) throw new Error(`openapi.yaml has no schema at ${pointer}`);
    return validate;
  }

  function admitsType(schema: Schema, value: unknown): boolean {
    if (schema.type === undefined) return true;
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    const type = jsonType(value);
    return types.includes(type) || (type === 'integer' && types.includes('number'));
  }

  /** The property whose enum tells the branches apart, when every branch declares one. */
  function discriminatingProperty(branches: Schema[]): string | undefined {
    const [first, ...rest] = branches;
    const candidates = Object.entries((first?.properties ?? {}) as Record<string, Schema>).filter(([, p]) =>
      Array.isArray(p.enum),
    );
    return candidates.find(([name]) =>
      rest.every((b) => Array.isArray(((b.properties ?? {}) as Record<string, Schema>)[name]?.enum)),
    )?.[0];
  }

  function explainOneOf(pointer: string, schema: Schema, value: unknown, path: string): FieldError[] {
    const branches = (schema.oneOf as unknown[]).map((_, index) => schemaAt(`${pointer}/oneOf/${index}`));
    const fitting = branches.filter((branch) => admitsType(branch.schema, value));
    if (fitting.length === 0) {
      const types = [...new Set(branches.flatMap((b) => [b.schema.type ?? []].flat() as string[]))];
      return [{ path, message: `must be ${types.join(' or ')}` }];
    }
    if (fitting.length === 1 && fitting[0]) return explain(fitting[0].pointer, value, path);
    const tag = isPlainObject(value) ? discriminatingProperty(fitting.map((b) => b.schema)) : undefined;
    if (tag === undefined || !isPlainObject(value)) return rawErrors(pointer, value, path);
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
        path: `${path}/${tag}`,
        message: tagValue === undefined ? 'is required' : `must be one of: ${allowed.join(', ')}`,
      };
      const common = Object.entries(value).filter(([name]) => name !== tag && sameEverywhere(name));
      const first = fitting[0]?.pointer ?? pointer;
      return [
        tagError,
        ...common.flatMap(([name, child]) =>
          explain(`${first}/properties/${escapePointer(name)}`, child, `${path}/${name}`),
        ),
      ];
    }
    const context = ` with ${tag} ${String(tagValue)}`;
    return explain(chosen.pointer, value, path).map((error) => {
      const property = error.path.slice(path.length + 1).split('/')[0] ?? '';
      if (error.path === path || property === tag || sameEverywhere(property)) return error;
      const message = error.message === 'is not a known property' ? 'is not allowed' : error.message;
      return { path: error.path, message: `${message}${context}` };
    });
  }

  function rawErrors(pointer: string, value: unknown, path: string): FieldError[] {
    const validate = validatorAt(pointer);
    validate(value);
    return (validate.errors ?? [])
      .filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'propertyNames')
      .map((e) => describeFailure(e, `${path}${e.instancePath}`));
  }

  function explain(pointer: string, value: unknown, path: string): FieldError[] {
    const validate = validatorAt(pointer);
    if (validate(value)) return [];
    // `propertyNames` repeats, vaguely, the error of the name that fails it.
    const ownErrors = (validate.errors ?? []).filter((e) => e.instancePath === '' && e.keyword !== 'propertyNames');
    const resolved = schemaAt(pointer);
    const { schema } = resolved;
    if (Array.isArray(schema.oneOf)) return explainOneOf(resolved.pointer, schema, value, path);
    if (schema.anyOf !== undefined || schema.allOf !== undefined) return rawErrors(pointer, value, path);
    // This level's own failures (type, bounds, required, unknown properties), then each child's.
    const errors = ownErrors.map((e) => describeFailure(e, path));
    if (ownErrors.some((e) => e.keyword === 'type')) return errors;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    if (isPlainObject(value)) {
      for (const [name, child] of Object.entries(value)) {
        if (Object.hasOwn(properties, name))
          errors.push(...explain(`${resolved.pointer}/properties/${escapePointer(name)}`, child, `${path}/${name}`));
        else if (typeof schema.additionalProperties === 'object')
          errors.push(...explain(`${resolved.pointer}/additionalProperties`, child, `${path}/${name}`));
      }
    }
    if (Array.isArray(value) && typeof schema.items === 'object') {
      for (const [index, item] of value.entries())
        errors.push(...explain(`${resolved.pointer}/items`, item, `${path}/${index}`));
    }
    return errors;
  }

  return { explain };
}
