// The 400 path. A check before the validator adds the fields it finds wrong to the request
// (addFieldErrors) and lets the request go on, so that one answer names every failing field; a
// check that cannot go on throws FieldValidationError, as domain rules do. The validator runs,
// then rejectPendingFieldErrors refuses a request that it passed but a check did not. Whatever
// refused it, the error handler (errors.ts) answers with the fields named here
// (requestValidationErrors): the fields the checks added first, then the refusal's (the
// validator's for parameters, the body's explained from the spec field by field, by
// schema-errors.ts).
import type { IncomingMessage } from 'node:http';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { Request, RequestHandler } from 'express';
import { type FieldError, FieldValidationError } from '../domain/field-errors.js';
import { type OpenApiDocument, requestBodySchemaPointer } from '../spec.js';
import { requestContext } from './request-context.js';
import { schemaExplainer } from './schema-errors.js';

/** Field errors found before the validator, for the 400 that will name them with its own. */
export function addFieldErrors(req: IncomingMessage, errors: readonly FieldError[]): void {
  requestContext(req).fieldErrors.push(...errors);
}

/** After the validator has passed a request: the 400 for the errors found before it, if any. */
export const rejectPendingFieldErrors: RequestHandler = (req, _res, next) => {
  if (requestContext(req).fieldErrors.length > 0) throw new FieldValidationError([]);
  next();
};

/** What refused a request with field errors: the validator, or a check or rule of the server's own. */
export interface FieldRefusal {
  by: 'validator' | 'server';
  errors: FieldError[];
}

/** The field errors a 400 names, from everything that failed. */
export type ValidationErrorsExplainer = (req: Request, refusal: FieldRefusal) => FieldError[];

/** The validator says `params` and `headers`; the envelope uses OpenAPI's names for where a value is. */
function envelopePath(validatorPath: string | undefined): string {
  if (validatorPath === undefined || validatorPath === '') return '/';
  return validatorPath.replace(/^\/params\//, '/path/').replace(/^\/headers\//, '/header/');
}

/** The validator's field errors, named as the envelope names fields. */
export function validatorFieldErrors(errors: readonly { path?: string; message?: string }[]): FieldError[] {
  return errors.map((e) => ({ path: envelopePath(e.path), message: e.message ?? 'is invalid' }));
}

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
