// What the conformance command knows of the API: openapi.yaml, read the way the server reads it
// (server/spec.ts), turned into what a client can check: each operation's parameters and body
// schema, the statuses it documents, and for each status the schemas of its body and headers.
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import {
  apiBasePaths,
  createSpecAjv,
  escapePointer,
  followRefs,
  type JsonObject,
  loadSpec,
  type OpenApiDocument,
  type SpecParameter,
  specOperations,
  validatorAt,
} from '../../server/spec.js';

export interface DocumentedHeader {
  /** Lower case, as a response's headers are read. */
  name: string;
  validate: ValidateFunction;
  /** Integer headers (Retry-After) are compared as numbers. */
  numeric: boolean;
}

export interface DocumentedResponse {
  /** The media type of the body, and its schema; none for a response without content. */
  mediaType?: string;
  body?: ValidateFunction;
  headers: DocumentedHeader[];
}

export interface ContractOperation {
  operationId: string;
  /** Upper case: GET, PATCH. */
  method: string;
  /** The path template as the spec writes it, `/keys/{hash}`. */
  template: string;
  parameters: SpecParameter[];
  /** The request body's JSON schema, `$ref` as written; none when the operation takes no body. */
  bodySchema?: JsonObject;
  bodyRequired: boolean;
  responses: Map<number, DocumentedResponse>;
  /** The key kinds its security requirements accept, as their roles (`bearerAuth: [management]`). */
  keyKinds: string[];
}

export interface Contract {
  spec: OpenApiDocument;
  ajv: Ajv2020;
  /** The path of the spec's first server URL (`/api/v1`), where a deployment serves the operations. */
  basePath: string;
  operations: ContractOperation[];
  /** The envelope of every non-2xx answer. */
  errorResponse: ValidateFunction;
  /** For each status documented by a `$ref`, the first operation that does and its `$ref`: an example for one that lacks it. */
  documentedAs: Map<number, { operationId: string; ref: string }>;
}

function resolve<T>(spec: OpenApiDocument, node: T, at = '#'): T {
  return followRefs(spec, node, at).node as T;
}

function documentedResponses(
  spec: OpenApiDocument,
  ajv: Ajv2020,
  at: string,
  responses: Record<string, unknown>,
): Map<number, DocumentedResponse> {
  const documented = new Map<number, DocumentedResponse>();
  for (const [status, written] of Object.entries(responses)) {
    const responseAt = followRefs(spec, written, `${at}/responses/${status}`).pointer;
    const response = resolve(spec, written) as {
      content?: Record<string, { schema?: unknown }>;
      headers?: Record<string, unknown>;
    };
    const [mediaType] = Object.keys(response.content ?? {});
    const headers = Object.entries(response.headers ?? {}).map(([name, header]) => {
      const headerAt = followRefs(spec, header, `${responseAt}/headers/${escapePointer(name)}`).pointer;
      const schema = resolve(spec, (resolve(spec, header) as { schema: JsonObject }).schema);
      return {
        name: name.toLowerCase(),
        validate: validatorAt(ajv, `${headerAt}/schema`),
        numeric: schema.type === 'integer' || schema.type === 'number',
      };
    });
    documented.set(Number(status), {
      ...(mediaType && {
        mediaType,
        body: validatorAt(ajv, `${responseAt}/content/${escapePointer(mediaType)}/schema`),
      }),
      headers,
    });
  }
  return documented;
}

function keyKindsOf(spec: OpenApiDocument, security: Record<string, string[]>[] | undefined): string[] {
  return [...new Set((security ?? spec.security ?? []).flatMap((requirement) => Object.values(requirement).flat()))];
}

export function loadContract(spec: OpenApiDocument = loadSpec()): Contract {
  const ajv = createSpecAjv(spec);
  const specified = specOperations(spec);
  const operations = specified.map(({ method, template, operation, parameters }): ContractOperation => {
    const at = `#/paths/${escapePointer(template)}/${method}`;
    const body = operation.requestBody?.content['application/json']?.schema;
    return {
      operationId: operation.operationId,
      method: method.toUpperCase(),
      template,
      parameters,
      ...(body && { bodySchema: body }),
      bodyRequired: operation.requestBody?.required === true,
      responses: documentedResponses(spec, ajv, at, operation.responses),
      keyKinds: keyKindsOf(spec, operation.security),
    };
  });
  const documentedAs = new Map<number, { operationId: string; ref: string }>();
  for (const { operation } of specified)
    for (const [status, written] of Object.entries(operation.responses)) {
      const ref = (written as { $ref?: unknown }).$ref;
      if (typeof ref === 'string' && !documentedAs.has(Number(status)))
        documentedAs.set(Number(status), { operationId: operation.operationId, ref });
    }
  const [basePath = ''] = apiBasePaths(spec);
  return {
    spec,
    ajv,
    basePath,
    operations,
    errorResponse: validatorAt(ajv, '#/components/schemas/ErrorResponse'),
    documentedAs,
  };
}

/** The operation of that id; an error naming it when the spec has none. */
export function operationById(contract: Contract, operationId: string): ContractOperation {
  const found = contract.operations.find((operation) => operation.operationId === operationId);
  if (!found) throw new Error(`openapi.yaml has no operation ${operationId}`);
  return found;
}
