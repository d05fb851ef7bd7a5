// The operation a request is for, found once (findOperation) for the layers that need it; and
// what the spec says of a request that the validator does not check, checked from the spec before
// the validator runs:
// - a query integer is written in digits: the validator coerces with Number(), which also takes
//   ' 5', '1e2', '0x10' and '5.0';
// - a required request body is there: the validator takes a missing body for a valid one, and the
//   JSON parser reads an empty one as `{}`.
// A missing body is refused at once; query errors wait for the validator, so that one answer names
// every failing field (the request context's `fieldErrors`).
import { isUtf8 } from 'node:buffer';
import express, { type Request, type RequestHandler } from 'express';
import { type FieldError, FieldValidationError } from '../domain/field-errors.js';
import { decodedComponent } from '../domain/not-utf8.js';
import type { OpenApiDocument, SpecParameter } from '../spec.js';
import { noOperationError } from './errors.js';
import { operationMatcher, pathMethods } from './operation-matcher.js';
import { deferFieldErrors, matchOf, type OperationFacts, requestContext } from './request-context.js';
import { declaresBody, queryStringOf } from './request-head.js';

const INTEGER_LITERAL = /^-?\d+$/;

/**
 * The JSON body parser, noting which requests had an empty body, and which had one that is not
 * UTF-8: the parser reads such bytes as U+FFFD, so the body it gives is not what was sent.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  return express.json({
    limit: limitBytes,
    type: ['application/json', 'application/*+json'],
    verify: (req, _res, buffer) => {
      if (buffer.length === 0) requestContext(req).emptyBody = true;
      else if (!isUtf8(buffer)) requestContext(req).notUtf8Body = buffer;
    },
  });
}

/**
 * Finds the operation (of `operations`, the spec's bound to their handlers) a request is for, once,
 * into the request's context, with its path parameters decoded. The validator answers the other
 * requests 404 or 405, but a path it cannot decode (not percent-encoded UTF-8) it refuses with a
 * 400, before any key: such a path of no operation gets its 404 or 405 here.
 */
export function findOperation(spec: OpenApiDocument, operations: readonly OperationFacts[]): RequestHandler {
  const match = operationMatcher(spec, operations);
  const methodsOf = pathMethods(spec);
  return (req, _res, next) => {
    // Stryker disable next-line StringLiteral: equivalent, see mutation/equivalents.md#split-fallback
    const path = req.originalUrl.split('?', 1)[0] ?? '';
    const found = match(req.method, path);
    if (found) requestContext(req).match = found;
    else if (decodedComponent(path) === undefined) throw noOperationError(methodsOf(path));
    next();
  };
}

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

/** Runs `handler` for a request that findOperation matched to an operation; others go straight on. */
export function forOperations(handler: RequestHandler): RequestHandler {
  return (req, res, next) => (matchOf(req) ? handler(req, res, next) : next());
}

/** Runs `handler` for a request to an operation that takes a body; a body sent to any other is not read. */
export function forOperationsWithBody(handler: RequestHandler): RequestHandler {
  return (req, res, next) => (matchOf(req)?.operation.operation.requestBody ? handler(req, res, next) : next());
}

/** After findOperation and the JSON body parser. */
export function checkRequestShape(operations: readonly OperationFacts[]): RequestHandler {
  const integersOf = new Map(operations.map((operation) => [operation, queryIntegers(operation.parameters)]));
  return (req, _res, next) => {
    const found = matchOf(req)?.operation;
    if (!found) return next();
    const queryString = queryStringOf(req.originalUrl);
    const { operation } = found;
    if (operation.requestBody?.required && !hasBody(req)) {
      throw new FieldValidationError([{ path: '/body', message: 'is required: send a JSON object' }]);
    }
    const integers = integersOf.get(found) ?? [];
    // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: equivalent, see mutation/equivalents.md#query-integer-short-cut
    if (integers.length === 0 || queryString === '') return next();
    const query = new URLSearchParams(queryString);
    const errors: FieldError[] = [];
    for (const { name, nullable } of integers) {
      for (const value of query.getAll(name)) {
        if (!INTEGER_LITERAL.test(value) && !(nullable && value === ''))
          errors.push({ path: `/query/${name}`, message: 'must be an integer written in digits' });
      }
    }
    deferFieldErrors(req, errors);
    next();
  };
}

/** After the validator has passed a request: the 400 for the errors found before it, if any. */
export const rejectPendingFieldErrors: RequestHandler = (req, _res, next) => {
  if (requestContext(req).fieldErrors.length > 0) throw new FieldValidationError([]);
  next();
};
