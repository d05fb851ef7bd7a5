// The operation a request is for, found once (findOperation) for the layers that need it; and
// what the spec says of a request that the validator does not check, checked from the spec before
// the validator runs:
// - a query integer is written in digits: the validator coerces with Number(), which also takes
//   ' 5', '1e2', '0x10' and '5.0';
// - a required request body is there: the validator takes a missing body for a valid one, and the
//   JSON parser reads an empty one as `{}`.
// A missing body is refused at once; query errors wait for the validator, so that one answer names
// every failing field (see `pendingFieldErrors`).
import { isUtf8 } from 'node:buffer';
import express, { type Request, type RequestHandler } from 'express';
import { type FieldError, FieldValidationError } from '../domain/field-errors.js';
import { decodedComponent } from '../domain/not-utf8.js';
import { type OpenApiDocument, type SpecOperation, type SpecParameter, specOperations } from '../spec.js';
import { noOperationError } from './errors.js';
import { operationMatcher, pathMethods } from './operation-matcher.js';

const INTEGER_LITERAL = /^-?\d+$/;

// Keyed by the request object: each entry goes with its request, whatever the request holds.
const emptyBodies = new WeakSet<Request>();
const notUtf8Bodies = new WeakMap<Request, Uint8Array>();
const matched = new WeakMap<Request, SpecOperation>();
const pending = new WeakMap<Request, FieldError[]>();

/**
 * The JSON body parser, noting which requests had an empty body, and which had one that is not
 * UTF-8: the parser reads such bytes as U+FFFD, so the body it gives is not what was sent.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  return express.json({
    limit: limitBytes,
    type: ['application/json', 'application/*+json'],
    verify: (req, _res, buffer) => {
      if (buffer.length === 0) emptyBodies.add(req as Request);
      else if (!isUtf8(buffer)) notUtf8Bodies.set(req as Request, buffer);
    },
  });
}

/** The bytes of a JSON body that are not all UTF-8, as sent; undefined for any other request. */
export function notUtf8Body(req: Request): Uint8Array | undefined {
  return notUtf8Bodies.get(req);
}

/** The operation of the spec that the request is for, as found before the validator ran. */
export function matchedOperation(req: Request): SpecOperation | undefined {
  return matched.get(req);
}

/**
 * Finds the operation of the spec a request is for, once, for the layers that need it
 * (matchedOperation). The validator answers the other requests 404 or 405, but a path it cannot
 * decode (not percent-encoded UTF-8) it refuses with a 400, before any key: such a path of no
 * operation gets its 404 or 405 here.
 */
export function findOperation(spec: OpenApiDocument): RequestHandler {
  const match = operationMatcher(spec);
  const methodsOf = pathMethods(spec);
  return (req, _res, next) => {
    // Stryker disable next-line StringLiteral: equivalent, see mutation/equivalents.md#split-fallback
    const path = req.originalUrl.split('?', 1)[0] ?? '';
    const found = match(req.method, path);
    if (found) matched.set(req, found);
    else if (decodedComponent(path) === undefined) throw noOperationError(methodsOf(path));
    next();
  };
}

/** Field errors found before the validator ran, for the 400 that names every failing field. */
export function pendingFieldErrors(req: Request): FieldError[] {
  return pending.get(req) ?? [];
}

function schemaTypes(schema: Record<string, unknown>): string[] {
  return Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
}

function hasBody(req: Request): boolean {
  if (emptyBodies.has(req)) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
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
  return (req, res, next) => (matched.has(req) ? handler(req, res, next) : next());
}

/** Runs `handler` for a request to an operation that takes a body; a body sent to any other is not read. */
export function forOperationsWithBody(handler: RequestHandler): RequestHandler {
  return (req, res, next) => (matched.get(req)?.operation.requestBody ? handler(req, res, next) : next());
}

/** After findOperation and the JSON body parser. */
export function checkRequestShape(spec: OpenApiDocument): RequestHandler {
  const integersOf = new Map(
    specOperations(spec).map(({ operation, parameters }) => [operation, queryIntegers(parameters)]),
  );
  return (req, _res, next) => {
    const found = matched.get(req);
    if (!found) return next();
    const url = req.originalUrl;
    const mark = url.indexOf('?');
    // Stryker disable next-line EqualityOperator,StringLiteral: equivalent, see mutation/equivalents.md#query-mark-never-first
    const queryString = mark < 0 ? '' : url.slice(mark + 1);
    const { operation } = found;
    if (operation.requestBody?.required && !hasBody(req)) {
      throw new FieldValidationError([{ path: '/body', message: 'is required: send a JSON object' }]);
    }
    const integers = integersOf.get(operation) ?? [];
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

/** Field errors found before the validator, for the 400 that will name them with its own. */
export function deferFieldErrors(req: Request, errors: readonly FieldError[]): void {
  if (errors.length > 0) pending.set(req, [...pendingFieldErrors(req), ...errors]);
}

/** After the validator has passed a request: the errors found before it, if any. */
export const rejectPendingFieldErrors: RequestHandler = (req, _res, next) => {
  const errors = pending.get(req);
  if (errors) throw new FieldValidationError(errors);
  next();
};
