// The request path's check step: every check of a request against openapi.yaml, in one layer,
// and one 400 naming every failing field they find. Each check is a function of the request that
// returns field errors: its shape (request-shape.ts), its text (text-fields.ts), its body's sizes
// (body-sizes.ts), the validator (validator.ts), whose body errors are explained from the spec
// field by field (schema-errors.ts), the values the spec marks `x-linear-time`, and, when anything
// failed, the rules of the stored object it changes (the config keys of a destination's type).
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { Request, RequestHandler, Response } from 'express';
import { type FieldError, FieldValidationError } from '../domain/field-errors.js';
import { matchedOperation } from '../http/request-context.js';
import { AnalysisAllowance, nonLinearPatternReason } from '../regex/linearity.js';
import type { OpenApiDocument } from '../spec.js';
import { bodySizesCheck } from './body-sizes.js';
import { oneEntryPerField } from './field-messages.js';
import { markedValues } from './marked-values.js';
import type { Operation } from './operation.js';
import { requestShapeChecks } from './request-shape.js';
import { schemaExplainer } from './schema-errors.js';
import { textFieldErrors } from './text-fields.js';

/** The field errors of a rule that reads the stored object a request changes; none for an operation without one. */
export type StoredObjectErrors = (operation: Operation, req: Request) => Promise<FieldError[]>;

export interface RequestChecksDeps {
  spec: OpenApiDocument;
  /** The spec compiled once, for the sizes, the explanations and the marked values. */
  ajv: Ajv2020;
  operations: readonly Operation[];
  /** The validator as one check (validator.ts). */
  validate: (req: Request, res: Response) => Promise<FieldError[]>;
  storedObjectErrors: StoredObjectErrors;
  /** As many fields as a 400 lists (ErrorMetadata.errors.maxItems): no check looks much further. */
  fieldLimit: number;
}

const inBody = (error: FieldError) => error.path === '/body' || error.path.startsWith('/body/');

/** After the body is read: the request's fields checked, and a 400 thrown naming every one that fails. */
export function checkRequest(deps: RequestChecksDeps): RequestHandler {
  const { spec, ajv, fieldLimit } = deps;
  const shapeErrors = requestShapeChecks(deps.operations);
  const sizesErrors = bodySizesCheck(spec, ajv);
  const explainer = schemaExplainer(spec, ajv);
  const linearTime = markedValues(spec, ajv, 'x-linear-time');

  const linearTimeErrors = (operation: Operation, body: unknown): FieldError[] => {
    if (!operation.body) return [];
    const allowance = new AnalysisAllowance();
    return linearTime(operation.body.schemaPointer, body, '/body').flatMap(({ path, value }) => {
      const reason = typeof value === 'string' ? nonLinearPatternReason(value, allowance) : undefined;
      return reason ? [{ path, message: reason }] : [];
    });
  };

  return async (req, res, next) => {
    const operation = matchedOperation(req);
    const early = shapeErrors(req, operation);
    const text = textFieldErrors(req, fieldLimit);
    early.push(...text.errors.slice(0, fieldLimit));
    // Nothing more can be known of a path that does not decode, or of a required body not sent.
    if (text.pathUnreadable || early.some((e) => e.path === '/body'))
      throw new FieldValidationError(oneEntryPerField(early));
    // Before the validator: the body it reads is cut down to what its schemas allow.
    early.push(...sizesErrors(operation, req.body));
    const validatorErrors = await deps.validate(req, res);
    // A parameter that an earlier check named is not named again in the validator's words.
    const parameters = validatorErrors.filter((error) => !inBody(error) && !early.some((e) => e.path === error.path));
    let body = validatorErrors.filter(inBody);
    if (operation.body && body.length > 0) {
      const left = fieldLimit - early.length - parameters.length;
      const explained = explainer.explain(operation.body.schemaPointer, req.body, '/body', left);
      if (explained.length > 0) body = explained;
    }
    const errors = [...early, ...parameters, ...body, ...linearTimeErrors(operation, req.body)];
    if (errors.length === 0) return next();
    // The stored object is found by the path and headers: only when they passed their checks.
    if (!errors.some((e) => e.path.startsWith('/path/') || e.path.startsWith('/header/')))
      errors.push(...(await deps.storedObjectErrors(operation, req)));
    throw new FieldValidationError(oneEntryPerField(errors));
  };
}
