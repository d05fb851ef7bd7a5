// The field errors that a 400 names, whatever refused the request: those found before the
// validator ran, then what was refused (the validator's errors for parameters, and the body's
// explained from the spec field by field; or a check's own).
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { FieldError } from '../domain/field-errors.js';
import { schemaExplainer } from '../domain/schema-errors.js';
import { type OpenApiDocument, requestBodySchemaPointer } from '../spec.js';
import type { ValidationErrorsExplainer } from './errors.js';
import { requestContext } from './request-context.js';

/**
 * The field errors a 400 names: those found before the validator ran (the request context's), then
 * those of the refusal; the validator's body errors explained from the spec, up to `fieldLimit`
 * (more than that many in the answer: there are more, and the search stopped).
 */
export function requestValidationErrors(
  spec: OpenApiDocument,
  ajv: Ajv2020,
  fieldLimit = Number.POSITIVE_INFINITY,
): ValidationErrorsExplainer {
  const explainer = schemaExplainer(spec, ajv);
  const inBody = (error: FieldError) => error.path === '/body' || error.path.startsWith('/body/');
  return (req, refusal) => {
    const early = requestContext(req).fieldErrors;
    if (refusal.by !== 'validator') return [...early, ...refusal.errors];
    const validatorErrors = refusal.errors;
    const parameters = validatorErrors.filter((error) => !inBody(error) && !early.some((e) => e.path === error.path));
    let body = validatorErrors.filter(inBody);
    const found = body.length > 0 ? requestContext(req).match?.operation : undefined;
    if (found?.operation.requestBody?.content['application/json']) {
      const pointer = requestBodySchemaPointer(found);
      const explained = explainer.explain(pointer, req.body, '/body', fieldLimit - early.length - parameters.length);
      if (explained.length > 0) body = explained;
    }
    return [...early, ...parameters, ...body];
  };
}
