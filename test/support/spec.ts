// Tests address the schemas of openapi.yaml the way the spec does: by operation, parameter and
// component name, never by copying them.
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import {
  compileComponent,
  createSpecAjv,
  escapePointer,
  loadSpec,
  nodeAt,
  type OpenApiOperation,
  type OpenApiParameter,
  SPEC_SCHEMA_ID,
} from '../../server/spec.js';

export const spec = loadSpec();
const ajv = createSpecAjv(spec);

export function componentSchema(name: string): ValidateFunction {
  return compileComponent(ajv, name);
}

export function findOperation(operationId: string): { path: string; method: string; operation: OpenApiOperation } {
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation.operationId === operationId) return { path, method, operation };
    }
  }
  throw new Error(`no operation ${operationId} in openapi.yaml`);
}

function compilePointer(pointer: string): ValidateFunction {
  const validate = ajv.getSchema(`${SPEC_SCHEMA_ID}${pointer}`);
  if (!validate) throw new Error(`cannot compile ${pointer}`);
  return validate;
}

export function parameterSchema(operationId: string, location: OpenApiParameter['in'], name: string): ValidateFunction {
  const { path, method, operation } = findOperation(operationId);
  const index = (operation.parameters ?? []).findIndex((p) => p.in === location && p.name === name);
  if (index < 0) throw new Error(`${operationId} has no ${location} parameter ${name}`);
  return compilePointer(`#/paths/${escapePointer(path)}/${method}/parameters/${index}/schema`);
}

export function requestBodySchema(operationId: string): ValidateFunction {
  const { path, method } = findOperation(operationId);
  return compilePointer(`#/paths/${escapePointer(path)}/${method}/requestBody/content/application~1json/schema`);
}

export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
}

/** A node of the spec with its `$ref`s followed to what they name. */
export function resolveRef<T extends object>(node: T): T {
  const ref = (node as { $ref?: unknown }).$ref;
  return typeof ref === 'string' ? resolveRef(nodeAt(spec, ref) as T) : node;
}
