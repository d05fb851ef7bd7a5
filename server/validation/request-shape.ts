// What the spec says of a request that the validator does not check, checked from the spec as
// part of the check step (request-checks.ts):
// - a query integer is written in digits: the validator coerces with Number(), which also takes
//   ' 5', '1e2', '0x10' and '5.0';
// - a required request body is there: the validator takes a missing body for a valid one, and the
//   JSON parser reads an empty one as `{}`.
import type { Request } from 'express';
import type { FieldError } from '../domain/field-errors.js';
import { requestContext } from '../http/request-context.js';
import { declaresBody } from '../http/request-head.js';
import type { SpecParameter } from '../spec.js';
import type { Operation } from './operation.js';

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

/** The checks of the request's shape for each of `operations`, found once. */
export function requestShapeChecks(
  operations: readonly Operation[],
): (req: Request, operation: Operation) => FieldError[] {
  const integersOf = new Map(operations.map((operation) => [operation, queryIntegers(operation.parameters)]));
  return (req, operation) => {
    const errors: FieldError[] = [];
    if (operation.body?.required && !hasBody(req))
      errors.push({ path: '/body', message: 'is required: send a JSON object' });
    const integers = integersOf.get(operation) ?? [];
    if (integers.length === 0 || !req.originalUrl.includes('?')) return errors;
    // Express's parser (which parses on each read) keeps each value as sent; a name sent twice gives an array.
    const query = req.query as Record<string, unknown>;
    for (const { name, nullable } of integers) {
      const values = [query[name]].flat();
      if (
        values.some((value) => typeof value === 'string' && !INTEGER_LITERAL.test(value) && !(nullable && value === ''))
      )
        errors.push({ path: `/query/${name}`, message: 'must be an integer written in digits' });
    }
    return errors;
  };
}
