// Tests address the schemas of openapi.yaml the way the spec does: by operation, parameter and
// component name, never by copying them.
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import {
  compileComponent,
  createSpecAjv,
  loadSpec,
  type OpenApiParameter,
  requestBodySchemaPointer,
  resolveRef as resolveSpecRef,
  type SpecOperation,
  specOperation,
  validatorAt,
} from '../../server/spec.js';

export const spec = loadSpec();
const ajv = createSpecAjv(spec);

export function componentSchema(name: string): ValidateFunction {
  return compileComponent(ajv, name);
}

/** An operation of the spec by operationId, with its parameters as they apply (path item's included, `$ref`s followed). */
export function findOperation(operationId: string): SpecOperation {
  return specOperation(spec, operationId);
}

function compilePointer(pointer: string): ValidateFunction {
  return validatorAt(ajv, pointer);
}

export function parameterSchema(operationId: string, location: OpenApiParameter['in'], name: string): ValidateFunction {
  const parameter = findOperation(operationId).parameters.find((p) => p.in === location && p.name === name);
  if (!parameter) throw new Error(`${operationId} has no ${location} parameter ${name}`);
  return compilePointer(`${parameter.pointer}/schema`);
}

export function requestBodySchema(operationId: string): ValidateFunction {
  return compilePointer(requestBodySchemaPointer(findOperation(operationId)));
}

export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
}

/** A node of the spec with its `$ref`s followed to what they name. */
export function resolveRef<T extends object>(node: T): T {
  return resolveSpecRef(spec, node) as T;
}

/** The Cache-Control an answer of the operation documents for a status: its header schema's const. */
export function documentedCacheControl(operationId: string, status: string): unknown {
  const { operation } = findOperation(operationId);
  const response = resolveRef(operation.responses[status] as object) as { headers?: Record<string, object> };
  const header = response.headers?.['Cache-Control'];
  const schema = header && (resolveRef(header) as { schema?: object }).schema;
  return schema && (resolveRef(schema) as { const?: unknown }).const;
}
