// What the spec says of a request that the validator does not check, checked from the spec before
// the validator runs:
// - a query integer is written in digits: the validator coerces with Number(), which also takes
//   ' 5', '1e2', '0x10' and '5.0';
// - a required request body is there: the validator takes a missing body for a valid one, and the
//   JSON parser reads an empty one as `{}`.
// A missing body is refused at once; query errors wait for the validator, so that one answer names
// every failing field (the request context's `fieldErrors`).
import type { Request, RequestHandler } from 'express';
import { type FieldError, FieldValidationError } from '../domain/field-errors.js';
import type { SpecParameter } from '../spec.js';
import { addFieldErrors } from './bad-request.js';
import type { Operation } from './operation.js';
import { matchedOperation, requestContext } from './request-context.js';
import { declaresBody, queryStringOf } from './request-head.js';

const INTEGER_LITERAL = /^-?\d+$/;

function schemaTypes(schema: Record<string, unknown>): string[] {
  return Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
}

function hasBody(req: Request): boolean {
  return !requestContext(req).emptyBody && declaresBody(req);
}

interface QueryInteger {
  name: string;
  /** Whether the empty value (null) is allowed. */
  nullable: boolean;
}

function queryIntegers(parameters: readonly SpecParameter[]): QueryInteger[] {
  return parameters.flatMap((parameter) => {
    const types = schemaTypes(parameter.schema);
    return parameter.in === 'query' && types.includes('integer')
      ? [{ name: parameter.name, nullable: types.includes('null') }]
      : [];
  });
}

/** After the operation match and the JSON body parser. */
export function checkRequestShape(operations: readonly Operation[]): RequestHandler {
  const integersOf = new Map(operations.map((operation) => [operation, queryIntegers(operation.parameters)]));
  return (req, _res, next) => {
    const found = matchedOperation(req).operation;
    const queryString = queryStringOf(req.originalUrl);
    const { operation } = found;
    if (operation.requestBody?.required && !hasBody(req)) {
      throw new FieldValidationError([{ path: '/body', message: 'is required: send a JSON object' }]);
    }
    const integers = integersOf.get(found) ?? [];
    if (integers.length === 0 || queryString === '') return next();
    const query = new URLSearchParams(queryString);
    const errors: FieldError[] = [];
    for (const { name, nullable } of integers) {
      for (const value of query.getAll(name)) {
        if (!INTEGER_LITERAL.test(value) && !(nullable && value === ''))
          errors.push({ path: `/query/${name}`, message: 'must be an integer written in digits' });
      }
    }
    addFieldErrors(req, errors);
    next();
  };
}
