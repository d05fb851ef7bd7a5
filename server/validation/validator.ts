// express-openapi-validator as the check step runs it (request-checks.ts): handed the operation
// match, so that it does not look the route up again (patches/, route-from-the-app), and run as one
// of the step's checks, its refusal read for the fields it names.
import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiValidatorOpts } from 'express-openapi-validator/dist/framework/types.js';
import type { FieldError } from '../domain/field-errors.js';
import { requestContext } from '../http/request-context.js';
import type { OpenApiDocument } from '../spec.js';

/** The route of a request past the operation match, as the validator names routes. */
function routeOf(req: IncomingMessage) {
  const { operation, route } = requestContext(req);
  if (!operation || !route) return undefined;
  return {
    openApiRoute: `${route.basePath}${operation.template}`,
    method: operation.method,
    pathParams: route.pathParameters as Record<string, string>,
  };
}

/** express-openapi-validator configured as this server configures it; the benchmark's validator baseline runs it so, matching routes itself. */
export function validatorOptions(spec: OpenApiDocument, validateResponses: boolean): OpenApiValidatorOpts {
  return {
    // The validator annotates the document it is given: it gets its own copy.
    apiSpec: structuredClone(spec) as unknown as string,
    // Every failing field, not only the first, so that one 400 names them all.
    validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    // CI lints the contract and every test run checks it here; production skips the check at start.
    validateApiSpec: validateResponses,
    // The contract takes no multipart bodies: no upload middleware on every request.
    fileUploader: false,
    $refParser: { mode: 'dereference' },
  };
}

/**
 * express-openapi-validator's handlers as this server runs them, handed the operation match:
 * those of requests, for the check step, and those of responses, mounted on their own (a
 * response's refusal reaches the error handler through the `next` they are given), when
 * `validateResponses`.
 */
export function validatorMiddleware(
  spec: OpenApiDocument,
  validateResponses: boolean,
): { requests: RequestHandler[]; responses: RequestHandler[] } {
  const options = { ...validatorOptions(spec, validateResponses), routeOf };
  return {
    requests: OpenApiValidator.middleware({ ...options, validateResponses: false }),
    responses: validateResponses
      ? OpenApiValidator.middleware({ ...options, validateRequests: false, validateApiSpec: false })
      : [],
  };
}

interface ValidatorError {
  status: number;
  message: string;
  errors: { path?: string; message?: string }[];
}

function isValidatorError(err: unknown): err is ValidatorError {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as ValidatorError).status === 'number' &&
    Array.isArray((err as ValidatorError).errors)
  );
}

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
 * The validator's handlers of requests (validatorMiddleware) as one check: the field errors of its
 * 400, none when it passes. Any other refusal (415) is thrown.
 */
export function requestValidator(
  handlers: readonly RequestHandler[],
): (req: Request, res: Response) => Promise<FieldError[]> {
  const run = (req: Request, res: Response, index: number, done: (err?: unknown) => void): void => {
    const handler = handlers[index];
    if (!handler) {
      done();
      return;
    }
    try {
      void handler(req, res, (err?: unknown) => (err ? done(err) : run(req, res, index + 1, done)));
    } catch (err) {
      done(err);
    }
  };
  return (req, res) =>
    new Promise((resolve, reject) => {
      run(req, res, 0, (err) => {
        if (err === undefined) resolve([]);
        else if (isValidatorError(err) && err.status === 400) resolve(validatorFieldErrors(err.errors));
        else reject(err);
      });
    });
}
