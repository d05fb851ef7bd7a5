// A request body cut down to the sizes its schema allows before the validator reads it, the sizes
// it exceeded named (size-limits.ts says why).
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { FieldError } from '../domain/field-errors.js';
import type { OpenApiDocument } from '../spec.js';
import type { Operation } from './operation.js';
import { requestBodySizesChecks } from './size-limits.js';

/** The sizes check of each operation's body: the sizes it exceeds, the body cut down to them. */
export function bodySizesCheck(
  spec: OpenApiDocument,
  ajv: Ajv2020,
): (operation: Operation, body: unknown) => FieldError[] {
  const checks = requestBodySizesChecks(spec, ajv);
  return (operation, body) => {
    const check = operation.body && checks.get(operation.body.schemaPointer);
    // A value of any other type than an array or object has no size: the check passes it.
    return check ? check(body, '/body') : [];
  };
}
