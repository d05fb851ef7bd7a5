// Loads openapi.yaml once and compiles its schemas with a JSON Schema 2020-12 validator, the
// dialect of OpenAPI 3.1. Tests address schemas the way the spec does: by operation, parameter
// and component name, never by copying them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

export const specPath = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

type JsonObject = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonObject;
}

export interface OpenApiOperation {
  operationId: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonObject }> };
  responses: Record<string, JsonObject>;
  security?: Record<string, string[]>[];
  summary?: string;
  tags?: string[];
}

export interface OpenApiDocument {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonObject>;
    responses: Record<string, JsonObject>;
    securitySchemes: Record<string, JsonObject>;
  };
  security?: Record<string, string[]>[];
}

export const spec = parse(readFileSync(specPath, 'utf8')) as OpenApiDocument;

const SPEC_ID = 'openapi.yaml';
// ajv-formats is published as CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictTuples: false });
  addFormats(ajv);
  // OpenAPI keywords and this contract's own extensions, which carry no validation.
  ajv.addVocabulary(['example', 'x-secret', 'x-destination-type']);
  // The document as a whole is not a schema: its two sections are declared as inert keywords so
  // that only what a pointer into them selects is compiled.
  ajv.addVocabulary(['components', 'paths']);
  ajv.addSchema({ $id: SPEC_ID, components: spec.components, paths: spec.paths }, undefined, undefined, false);
  return ajv;
}

const ajv = createAjv();

export function componentSchema(name: string): ValidateFunction {
  const validate = ajv.getSchema(`${SPEC_ID}#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema components/schemas/${name} in openapi.yaml`);
  return validate;
}

export function findOperation(operationId: string): { path: string; method: string; operation: OpenApiOperation } {
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation.operationId === operationId) return { path, method, operation };
    }
  }
  throw new Error(`no operation ${operationId} in openapi.yaml`);
}

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

export function parameterSchema(operationId: string, location: OpenApiParameter['in'], name: string): ValidateFunction {
  const { path, method, operation } = findOperation(operationId);
  const index = (operation.parameters ?? []).findIndex((p) => p.in === location && p.name === name);
  if (index < 0) throw new Error(`${operationId} has no ${location} parameter ${name}`);
  const pointer = `#/paths/${escapePointer(path)}/${method}/parameters/${index}/schema`;
  const validate = ajv.getSchema(`${SPEC_ID}${pointer}`);
  if (!validate) throw new Error(`cannot compile ${pointer}`);
  return validate;
}

export function requestBodySchema(operationId: string): ValidateFunction {
  const { path, method } = findOperation(operationId);
  const pointer = `#/paths/${escapePointer(path)}/${method}/requestBody/content/application~1json/schema`;
  const validate = ajv.getSchema(`${SPEC_ID}${pointer}`);
  if (!validate) throw new Error(`cannot compile ${pointer}`);
  return validate;
}

export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
}
