// The field errors that a 400 names, from the validator's verdict: those found before it ran,
// its own for parameters, and the body's explained from the spec field by field.
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { FieldError } from '../domain/field-errors.js';
import { schemaExplainer } from '../domain/schema-errors.js';
import { escapePointer, type OpenApiDocument } from '../spec.js';
import type { ValidationErrorsExplainer } from './errors.js';
import { matchedOperation, pendingFieldErrors } from './request-shape.js';

/**
 * The field errors a 400 names: those found before the validator ran (request-shape.ts), the
 * validator's own for parameters, and the body's explained from the spec, up to `fieldLimit` (more
 * than that many in the answer: there are more, and the search stopped).
 */
export function requestValidationErrors(
  spec: OpenApiDocument,
  ajv: Ajv2020,
  fieldLimit = Number.POSITIVE_INFINITY,
): ValidationErrorsExplainer {
  const explainer = schemaExplainer(spec, ajv);
  const inBody = (error: FieldError) => error.path === '/body' || error.path.startsWith('/body/');
  return (req, validatorErrors) => {
    const early = pendingFieldErrors(req);
    const parameters = validatorErrors.filter((error) => !inBody(error) && !early.some((e) => e.path === error.path));
    let body = validatorErrors.filter(inBody);
    const found = body.length > 0 ? matchedOperation(req) : undefined;
    if (found?.operation.requestBody?.content['application/json']) {
      const pointer = `#/paths/${escapePointer(found.template)}/${found.method}/requestBody/content/application~1json/schema`;
      const explained = explainer.explain(pointer, req.body, '/body', fieldLimit - early.length - parameters.length);
      if (explained.length > 0) body = explained;
    }
    return [...early, ...parameters, ...body];
  };
}
