// The contract, loaded once from openapi.yaml, and a JSON Schema 2020-12 validator over its
// components (the dialect of OpenAPI 3.1). The server's request validation, its per-type
// destination rules and the contract tests all read the same file through this module.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type Options as AjvOptions, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import yaml from 'js-yaml';
import { projectRoot } from './project-root.js';

export const specPath = join(projectRoot, 'openapi.yaml');

export type JsonObject = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonObject;
}

/** A parameter as written: in place, or a `$ref` to one (components.parameters). */
export type OpenApiParameterOrRef = OpenApiParameter | { $ref: string };

export interface OpenApiOperation {
  operationId: string;
  /** As written; `SpecOperation.parameters` has them with the path item's, `$ref`s followed. */
  parameters?: OpenApiParameterOrRef[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonObject }> };
  responses: Record<string, JsonObject>;
  security?: Record<string, string[]>[];
  summary?: string;
  tags?: string[];
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  paths: Record<string, OpenApiPathItem>;
  components: {
    schemas: Record<string, JsonObject>;
    parameters?: Record<string, OpenApiParameterOrRef>;
    responses: Record<string, JsonObject>;
    securitySchemes: Record<string, JsonObject>;
  };
  security?: Record<string, string[]>[];
}

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** YAML 1.2's core schema: plain scalars are strings, numbers, booleans and null, never dates. */
export function parseSpecYaml(text: string): unknown {
  return yaml.load(text, { schema: yaml.CORE_SCHEMA });
}

/** The contract and the code disagree, or the contract cannot be read: the server cannot run. */
export class ContractError extends Error {
  override name = 'ContractError';
}

export function loadSpec(path: string = specPath): OpenApiDocument {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ContractError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return parseSpecYaml(text) as OpenApiDocument;
  } catch (err) {
    const { reason, mark } = err as { reason?: string; mark?: { line: number; column: number } };
    throw new ContractError(
      `${path} is not valid YAML: ${reason ?? (err as Error).message}${mark ? ` (line ${mark.line + 1}, column ${mark.column + 1})` : ''}`,
    );
  }
}

/** One segment of a JSON pointer, escaped: `/keys/{hash}` is `~1keys~1{hash}`. */
export function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The JSON pointer of an operation's request body schema for a media type (JSON by default). */
export function requestBodySchemaPointer(
  { template, method }: { template: string; method: string },
  mediaType = 'application/json',
): string {
  return `#/paths/${escapePointer(template)}/${method}/requestBody/content/${escapePointer(mediaType)}/schema`;
}

/**
 * A segment of a JSON pointer as the key it names: `a~1b` is `a/b`; percent-encoded as a `$ref`'s
 * URI fragment may be (`%7Bhash%7D` is `{hash}`).
 */
export function unescapePointer(segment: string): string {
  const decoded = percentDecoded(segment);
  return decoded.includes('~') ? decoded.replaceAll('~1', '/').replaceAll('~0', '~') : decoded;
}

function percentDecoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The node at a JSON pointer (`#/components/schemas/Uuid`) of the document; undefined when there is none. */
export function nodeAt(spec: OpenApiDocument, pointer: string): unknown {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, segment) => {
      if (typeof node !== 'object' || node === null) return undefined;
      const key = unescapePointer(segment);
      return Object.hasOwn(node, key) ? (node as JsonObject)[key] : undefined;
    }, spec);
}

export const SPEC_SCHEMA_ID = 'openapi.yaml';

// ajv-formats is published as CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** A validator whose `openapi.yaml#/...` references point into the given document. */
export function createSpecAjv(spec: OpenApiDocument, options: Pick<AjvOptions, 'useDefaults' | 'code'> = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictTuples: false, ...options });
  addFormats(ajv);
  // OpenAPI keywords and this contract's own extensions, which carry no validation.
  ajv.addVocabulary(['example', 'x-secret', 'x-destination-type', 'x-linear-time']);
  // The document as a whole is not a schema: its two sections are declared as inert keywords so
  // that only what a pointer into them selects is compiled.
  ajv.addVocabulary(['components', 'paths']);
  ajv.addSchema({ $id: SPEC_SCHEMA_ID, components: spec.components, paths: spec.paths }, undefined, undefined, false);
  return ajv;
}

/**
 * The validator of the schema at a pointer of the spec, compiled once by `ajv` (createSpecAjv); of
 * another document added to it, by that document's `$id`. A pointer to no schema throws.
 */
export function validatorAt(ajv: Ajv2020, pointer: string, schemaId = SPEC_SCHEMA_ID): ValidateFunction {
  const validate = ajv.getSchema(`${schemaId}${pointer}`);
  if (!validate) throw new Error(`openapi.yaml has no schema at ${pointer}`);
  return validate;
}

export function compileComponent(ajv: Ajv2020, name: string): ValidateFunction {
  return validatorAt(ajv, `#/components/schemas/${name}`);
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** A path of the spec: its operations by method, and the parameters they all share. */
export type OpenApiPathItem = Partial<Record<HttpMethod, OpenApiOperation>> & { parameters?: OpenApiParameterOrRef[] };

/** A parameter of an operation as it applies, `$ref` followed, with where it is written in the spec. */
export interface SpecParameter extends OpenApiParameter {
  /** The JSON pointer of the parameter object (`#/paths/~1keys~1{hash}/get/parameters/0`). */
  pointer: string;
  example?: unknown;
}

export interface SpecOperation {
  method: HttpMethod;
  /** The path template as the spec writes it, `/keys/{hash}`. */
  template: string;
  operation: OpenApiOperation;
  /** The path item's parameters and the operation's own (which win on the same name and location). */
  parameters: SpecParameter[];
}

/**
 * Where a node of the spec leads once its `$ref`s are followed: the node they name and its pointer
 * (`at` itself for a node that is no `$ref`), each `$ref` on the way given to `onHop`. A chain past
 * 16 hops, or a `$ref` naming nothing, is a ContractError.
 */
export function followRefs(
  spec: OpenApiDocument,
  node: unknown,
  at: string,
  onHop?: (ref: string) => void,
): { node: unknown; pointer: string } {
  let current = node;
  let pointer = at;
  for (let hops = 0; typeof (current as { $ref?: unknown } | null)?.$ref === 'string'; hops++) {
    if (hops > 16) throw new ContractError(`${at}: $ref chain too long`);
    const ref = (current as { $ref: string }).$ref;
    onHop?.(ref);
    pointer = ref;
    current = nodeAt(spec, pointer);
    if (typeof current !== 'object' || current === null)
      throw new ContractError(`${at}: $ref ${pointer} names nothing`);
  }
  return { node: current, pointer };
}

/** The name of the component schema a `$ref` names (`#/components/schemas/Uuid` is `Uuid`); undefined for another kind of `$ref`. */
export function componentSchemaName(ref: string): string | undefined {
  const prefix = '#/components/schemas/';
  return ref.startsWith(prefix) ? unescapePointer(ref.slice(prefix.length)) : undefined;
}

/** What a node of the spec names once its `$ref`s are followed, by the rule of followRefs; `at` only names it in errors. */
export function resolveRef(spec: OpenApiDocument, node: unknown, at = 'openapi.yaml'): unknown {
  return followRefs(spec, node, at).node;
}

function followParameterRef(spec: OpenApiDocument, node: OpenApiParameterOrRef, at: string): SpecParameter {
  const { node: parameter, pointer } = followRefs(spec, node, at);
  return { ...(parameter as OpenApiParameter), pointer };
}

function operationParameters(spec: OpenApiDocument, template: string, method: HttpMethod): SpecParameter[] {
  const item = spec.paths[template] ?? {};
  const at = `#/paths/${escapePointer(template)}`;
  const written = [
    ...(item.parameters ?? []).map((p, i) => followParameterRef(spec, p, `${at}/parameters/${i}`)),
    ...(item[method]?.parameters ?? []).map((p, i) => followParameterRef(spec, p, `${at}/${method}/parameters/${i}`)),
  ];
  return [...new Map(written.map((p) => [`${p.in} ${p.name}`, p])).values()];
}

/** Every operation of the spec, in the spec's order. */
export function specOperations(spec: OpenApiDocument): SpecOperation[] {
  return Object.entries(spec.paths).flatMap(([template, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = item[method];
      return operation
        ? [{ method, template, operation, parameters: operationParameters(spec, template, method) }]
        : [];
    }),
  );
}

/** The operation of the spec with this operationId; an id it lacks is a ContractError. */
export function specOperation(spec: OpenApiDocument, operationId: string): SpecOperation {
  const found = specOperations(spec).find((entry) => entry.operation.operationId === operationId);
  if (!found) throw new ContractError(`openapi.yaml has no operation ${operationId}`);
  return found;
}

/** The path part of each server URL of the spec (`/api/v1`), where the operations are served. */
export function apiBasePaths(spec: OpenApiDocument): string[] {
  const urls = (spec.servers ?? []).map((server) => server.url);
  const paths = (urls.length > 0 ? urls : ['/']).map((url) =>
    new URL(url, 'http://server.invalid').pathname.replace(/\/+$/, ''),
  );
  return [...new Set(paths)];
}

/** The path of an operation of the spec under its first server URL, its path parameters filled in. */
export function operationPath(spec: OpenApiDocument, operationId: string, parameters: Record<string, string>): string {
  const found = specOperation(spec, operationId);
  const [basePath = ''] = apiBasePaths(spec);
  return (
    basePath +
    found.template.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(parameters[name] ?? ''))
  );
}
