// The console's check of a request body before it is sent: each operation's body schema from the
// spec, compiled by Ajv at build time into plain code (Ajv's standalone output), so that the page
// validates with no `eval` and its policy keeps `script-src 'self'`.
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import {
  createSpecAjv,
  type OpenApiDocument,
  requestBodySchemaPointer,
  SPEC_SCHEMA_ID,
  specOperations,
} from '../../../server/spec.js';

// Published as CommonJS with a default export.
const standaloneCode = standaloneCodeModule as unknown as typeof standaloneCodeModule.default;

/** A CommonJS module exporting one validate function per operation that takes a JSON body, named by its operationId. */
export function bodyValidatorsModule(spec: OpenApiDocument): string {
  const ajv = createSpecAjv(spec, { code: { source: true } });
  const refs: Record<string, string> = {};
  for (const { template, method, operation } of specOperations(spec)) {
    if (!operation.requestBody?.content['application/json']) continue;
    refs[operation.operationId] = `${SPEC_SCHEMA_ID}${requestBodySchemaPointer({ template, method })}`;
  }
  return standaloneCode(ajv, refs);
}
