// The sizes a request body's schema allows (maxItems, maxProperties), checked before anything else
// of it, and the body cut down to them; an object that takes no properties but its own is cut past
// as many unknown ones as a 400 can list. A body within the byte limit may still hold tens of
// thousands of items where the schema allows fifty; checking each of them against its schema, and
// explaining each failure, is work out of all proportion to the one error that matters. So the
// sizes are checked first, against the same schemas stripped of every other rule, and what lies
// past them is dropped before the full validation, which then reports the rest of the body.
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { FieldError } from '../domain/field-errors.js';
import {
  isObject,
  type JsonObject,
  nodeAt,
  type OpenApiDocument,
  requestBodySchemaPointer,
  resolveRef,
  specOperations,
  unescapePointer,
  validatorAt,
} from '../spec.js';

const SIZE_KEYWORDS = ['maxItems', 'maxProperties'] as const;
const SIZES_SCHEMA_ID = 'openapi-sizes.yaml';
/** Drops the properties of an object past the number it names, silently: a cut, not a rule. */
const DROP_PAST = 'dropPropertiesPast';

const mapValues = (object: JsonObject, map: (value: unknown) => unknown): JsonObject =>
  Object.fromEntries(Object.entries(object).map(([name, value]) => [name, map(value)]));

/** The schema a `$ref` names, followed to the end. */
type Resolve = (schema: unknown) => JsonObject;

const CONTAINER_TYPES = ['array', 'object'] as const;

/** The container types a schema can take: both when it does not say. */
function containerTypesOf(schema: JsonObject): readonly string[] {
  if (schema.type === undefined) return CONTAINER_TYPES;
  const types = [schema.type].flat();
  return CONTAINER_TYPES.filter((type) => types.includes(type));
}

/**
 * A schema that keeps only the sizes of `schema` and the structure that leads to them, and that
 * fails on nothing else, so that its work and its errors stay proportional to the oversized parts
 * of a body. Alternatives (oneOf, anyOf) apply by the type of the value: an array gets the sizes of
 * the alternatives that take arrays (within those of one of them), an object those that take
 * objects; a value of another type gets none. So a body the whole schema accepts always passes.
 */
function sizesOnly(schema: unknown, resolve: Resolve, unknownKept: number): unknown {
  if (!isObject(schema)) return {};
  const sizes = (child: unknown) => sizesOnly(child, resolve, unknownKept);
  const kept: JsonObject = {};
  if (typeof schema.$ref === 'string') kept.$ref = schema.$ref;
  for (const keyword of SIZE_KEYWORDS) if (typeof schema[keyword] === 'number') kept[keyword] = schema[keyword];
  // A closed object (no additional or pattern properties): every property past its own is an error
  // of its own; past as many as a 400 lists, the rest are dropped unread.
  if (schema.additionalProperties === false && schema.patternProperties === undefined) {
    const declared = Object.keys(isObject(schema.properties) ? schema.properties : {}).length;
    kept[DROP_PAST] = declared + unknownKept;
  }
  if (isObject(schema.items)) kept.items = sizes(schema.items);
  if (Array.isArray(schema.prefixItems)) kept.prefixItems = schema.prefixItems.map(sizes);
  if (isObject(schema.properties)) kept.properties = mapValues(schema.properties, sizes);
  if (isObject(schema.patternProperties)) kept.patternProperties = mapValues(schema.patternProperties, sizes);
  if (isObject(schema.additionalProperties)) kept.additionalProperties = sizes(schema.additionalProperties);
  const alternatives = [schema.oneOf, schema.anyOf].flatMap((list) => (Array.isArray(list) ? list : []));
  const byType = CONTAINER_TYPES.flatMap((type) => {
    const taking = alternatives.filter((branch) => containerTypesOf(resolve(branch)).includes(type)).map(sizes);
    if (taking.length === 0) return [];
    // A JSON Schema `if`/`then`, built as data.
    return [
      Object.fromEntries([
        ['if', { type }],
        ['then', taking.length === 1 ? taking[0] : { anyOf: taking }],
      ]),
    ];
  });
  const all = [...byType, ...(Array.isArray(schema.allOf) ? schema.allOf.map(sizes) : [])];
  if (all.length > 0) kept.allOf = all;
  return kept;
}

/** The sizes check of a body: its errors, the body cut down in place to the sizes allowed. */
export type SizesCheck = (body: unknown, path: string) => FieldError[];

/** `/a/b~1c` as the keys it names. */
function keysOf(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointer);
}

function at(value: unknown, keys: readonly string[]): unknown {
  let node = value;
  for (const key of keys) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as JsonObject)[key];
  }
  return node;
}

/** Cuts an array or object down to `limit` items or properties (the first ones); whether it was there to cut. */
function cutDown(container: unknown, limit: number): boolean {
  if (Array.isArray(container)) {
    container.length = Math.min(container.length, limit);
    return true;
  }
  if (!isObject(container)) return false;
  for (const name of Object.keys(container).slice(limit)) delete container[name];
  return true;
}

function sizesCheck(validate: ValidateFunction): SizesCheck {
  return (body, path) => {
    if (validate(body)) return [];
    // Several alternatives can set a size for the same part: it is cut to the largest, which one
    // of them allows; the validator then holds the part to the alternative that applies.
    const largest = new Map<string, ErrorObject>();
    for (const error of validate.errors ?? []) {
      if (!(SIZE_KEYWORDS as readonly string[]).includes(error.keyword)) continue;
      const found = largest.get(error.instancePath);
      if (!found || Number(error.params.limit) > Number(found.params.limit)) largest.set(error.instancePath, error);
    }
    const oversized = [...largest.values()]
      .map((error) => ({ error, keys: keysOf(error.instancePath) }))
      // Outermost first: what lies inside a part cut away is no longer there to report.
      .sort((a, b) => a.keys.length - b.keys.length);
    const errors: FieldError[] = [];
    for (const { error, keys } of oversized) {
      if (!cutDown(at(body, keys), Number(error.params.limit))) continue;
      const message = error.message ?? 'is too large';
      errors.push({ path: `${path}${error.instancePath}`, message });
    }
    return errors;
  };
}

/** The sizes check of each operation's JSON request body, by the pointer of the body's schema. */
export function requestBodySizesChecks(spec: OpenApiDocument, ajv: Ajv2020): Map<string, SizesCheck> {
  const resolve: Resolve = (schema) => {
    const node = resolveRef(spec, schema);
    return isObject(node) ? node : {};
  };
  // Unknown properties of a closed object are named one by one, up to as many as a 400 lists, and
  // one more so that it says there are more.
  const unknownKept = Number(nodeAt(spec, '#/components/schemas/ErrorMetadata/properties/errors/maxItems')) + 1;
  ajv.addKeyword({
    keyword: DROP_PAST,
    type: 'object',
    schemaType: 'number',
    modifying: true,
    validate: (limit: number, data: JsonObject) => {
      for (const name of Object.keys(data).slice(limit)) delete data[name];
      return true;
    },
  });
  const schemas = mapValues(spec.components.schemas, (schema) => sizesOnly(schema, resolve, unknownKept));
  const paths: JsonObject = {};
  const checks = new Map<string, SizesCheck>();
  const bodies = specOperations(spec).flatMap(({ operation, template, method }) => {
    const schema = operation.requestBody?.content['application/json']?.schema;
    return schema === undefined ? [] : [{ template, method, schema }];
  });
  for (const { template, method, schema } of bodies) {
    const requestBody = { content: { 'application/json': { schema: sizesOnly(schema, resolve, unknownKept) } } };
    paths[template] = { ...(paths[template] as JsonObject | undefined), [method]: { requestBody } };
  }
  ajv.addSchema({ $id: SIZES_SCHEMA_ID, components: { schemas }, paths }, undefined, undefined, false);
  for (const { template, method } of bodies) {
    const pointer = requestBodySchemaPointer({ template, method });
    checks.set(pointer, sizesCheck(validatorAt(ajv, pointer, SIZES_SCHEMA_ID)));
  }
  return checks;
}
