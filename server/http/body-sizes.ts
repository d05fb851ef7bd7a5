// A request body cut down to the sizes its schema allows before the validator reads it, the sizes
// it exceeded kept for the 400 (domain/size-limits.ts says why).

import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { RequestHandler } from 'express';
import { requestBodySizesChecks } from '../domain/size-limits.js';
import type { OpenApiDocument } from '../spec.js';
import { addFieldErrors } from './bad-request.js';
import { matchedOperation } from './request-context.js';

/** After the operation match and the JSON body parser, before the validator. */
export function checkBodySizes(spec: OpenApiDocument, ajv: Ajv2020): RequestHandler {
  const checks = requestBodySizesChecks(spec, ajv);
  return (req, _res, next) => {
    const check = checks.get(matchedOperation(req).operation.operation);
    // A value of any other type than an array or object has no size: the check passes it.
    if (check) addFieldErrors(req, check(req.body, '/body'));
    next();
  };
}
