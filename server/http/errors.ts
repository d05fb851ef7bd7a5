// The error envelope, and the mapping of every error the server can meet to it.
import type { IncomingMessage } from 'node:http';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { components } from '../../generated/api.js';
import { type FieldError, FieldValidationError } from '../domain/field-errors.js';
import { UnreadableSecretError } from '../domain/secrets.js';
import { nodeAt, type OpenApiDocument } from '../spec.js';
import { isDatabaseUnavailable } from '../store/database.js';
import { isReadOnlyRefusal } from '../store/read-only.js';
import { declaresBody } from './request-head.js';

type ErrorBody = components['schemas']['ErrorResponse'];
type ErrorMetadata = NonNullable<ErrorBody['error']['metadata']>;

/** An error the server answers on purpose, with its status, message and headers. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly metadata: ErrorMetadata | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const RETRY_AFTER_SECONDS = 1;
/** While the database is read-only for a move, which takes minutes rather than a second. */
export const READ_ONLY_RETRY_AFTER_SECONDS = 5;

/** The envelope's own bounds, from ErrorResponse in openapi.yaml: whatever a request holds, the answer stays small. */
export interface EnvelopeBounds {
  message: number;
  fieldPath: number;
  fieldMessage: number;
  fieldErrors: number;
}

export function envelopeBounds(spec: OpenApiDocument): EnvelopeBounds {
  const bound = (pointer: string): number => {
    const value = nodeAt(spec, pointer);
    if (typeof value !== 'number') throw new Error(`openapi.yaml has no number at ${pointer}`);
    return value;
  };
  return {
    message: bound('#/components/schemas/ErrorResponse/properties/error/properties/message/maxLength'),
    fieldPath: bound('#/components/schemas/FieldError/properties/path/maxLength'),
    fieldMessage: bound('#/components/schemas/FieldError/properties/message/maxLength'),
    fieldErrors: bound('#/components/schemas/ErrorMetadata/properties/errors/maxItems'),
  };
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}

/** Whether the request declared a body that has not fully arrived. */
function bodyPending(req: IncomingMessage): boolean {
  return declaresBody(req) && !req.complete;
}

/** The error envelope of every answer that is not a success. */
export function errorEnvelope(status: number, message: string, metadata: ErrorMetadata | null = null): ErrorBody {
  return { error: { code: status, message, metadata } };
}

export function sendError(res: Response, status: number, message: string, metadata: ErrorMetadata | null = null): void {
  const body = errorEnvelope(status, message, metadata);
  // A refusal before the body has arrived (401, 403, 413, 415...) closes the connection: a client
  // sending it slowly, or waiting for a `100 Continue` that does not come, does not hold it until
  // the request timeout.
  if (bodyPending(res.req)) res.set('Connection', 'close');
  // Every error answer documents `no-store` (openapi.yaml): it may not hold a moment later.
  res.set('Cache-Control', 'no-store');
  // res.json, so that in development and tests error bodies are checked against the spec too.
  res.status(status).json(body);
}

/**
 * The one summary line of a 400: the first three failing fields, then how many more; past the
 * `listed` fields of metadata.errors, the explanation stopped looking, and it says so.
 */
function validationMessage(errors: readonly FieldError[], listed: number): string {
  const summary = errors
    .slice(0, 3)
    .map((e) => `${clip(e.path, 200)} ${clip(e.message, 200)}`)
    .join('; ');
  const more =
    errors.length > listed
      ? ` (and more: metadata.errors lists the first ${listed})`
      : errors.length > 3
        ? ` (and ${errors.length - 3} more)`
        : '';
  return `Invalid request: ${summary}${more}`;
}

function validationError(errors: FieldError[], listed: number): HttpError {
  return new HttpError(400, validationMessage(errors, listed), { errors });
}

/** Why a body did not parse: not JSON text at all, or JSON that is not an object or array (the parser's strict mode). */
function notJsonMessage(err: { body?: unknown; message?: unknown }): string {
  const text = typeof err.body === 'string' ? err.body.trimStart() : '';
  if (text !== '' && !text.startsWith('{') && !text.startsWith('[')) return 'must be a JSON object';
  const position = /position (\d+)/.exec(String(err.message))?.[1];
  return position === undefined ? 'is not valid JSON' : `is not valid JSON (at character ${position})`;
}

/** Errors of the JSON body parser carry a `type`; see the body-parser documentation. */
function isBodyParserError(
  err: unknown,
): err is { type: string; status: number; limit?: number; body?: unknown; message: string } {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { type?: unknown }).type === 'string' &&
    typeof (err as { status?: unknown }).status === 'number'
  );
}

const NOT_FOUND = 'Not found.';
const METHOD_NOT_ALLOWED = 'Method not allowed.';
/** The 415s' texts, the same whichever layer refuses the request (content-type.ts, the validator, the body parser). */
export const UNSUPPORTED_MEDIA_TYPE = 'Unsupported media type: send the body as application/json.';
export const UNSUPPORTED_CHARSET = 'Unsupported request encoding; send UTF-8 JSON.';

/** The words of a library's refusal of the request (the validator's, the body parser's), by status. */
const REFUSAL_MESSAGES: Record<number, string> = {
  413: 'Request body is too large.',
  415: UNSUPPORTED_MEDIA_TYPE,
};

/**
 * The status of an error a library raised for the request itself, below 500 (http-errors' errors:
 * body-parser's and raw-body's for a corrupt compressed stream, an aborted or short body): the
 * client's fault keeps its status, whatever else the error carries.
 */
function clientErrorStatus(err: unknown): number | undefined {
  if (typeof err !== 'object') return undefined;
  if (err === null) return undefined;
  const { status, statusCode } = err as { status?: unknown; statusCode?: unknown };
  const code = typeof status === 'number' ? status : statusCode;
  return typeof code === 'number' && Number.isInteger(code) && code >= 400 && code < 500 ? code : undefined;
}

/** The words of such a refusal: the library's own message may name its internals, so it is not sent. */
function clientErrorMessage(req: Request, status: number): string {
  const coding = req.headers['content-encoding'];
  // Node's parser has trimmed the header's value already.
  if (status === 400 && coding !== undefined && coding.toLowerCase() !== 'identity')
    return `The request body could not be decoded: its ${coding} stream is corrupt or cut short.`;
  return REFUSAL_MESSAGES[status] ?? 'The request could not be read.';
}

function toHttpError(err: unknown, req: Request, listed: number): HttpError | undefined {
  if (err instanceof HttpError) return err;
  if (err instanceof FieldValidationError) return validationError(err.errors, listed);
  if (isBodyParserError(err)) {
    switch (err.type) {
      case 'entity.too.large':
        return new HttpError(413, `Request body is larger than ${err.limit ?? 'the limit of'} bytes.`);
      case 'entity.parse.failed':
        return validationError([{ path: '/body', message: notJsonMessage(err) }], listed);
      case 'encoding.unsupported':
      case 'charset.unsupported':
        return new HttpError(415, UNSUPPORTED_CHARSET);
      // Any other keeps its client-error status, as every library's error does (below).
    }
  }
  const status = clientErrorStatus(err);
  if (status !== undefined) return new HttpError(status, clientErrorMessage(req, status));
  // Last: a validator's 400 carries every failing field in its message, which can be long.
  if (isReadOnlyRefusal(err)) {
    return new HttpError(503, 'The service is read-only while its database moves; retry later.', null, {
      'Retry-After': String(READ_ONLY_RETRY_AFTER_SECONDS),
    });
  }
  // A secret this process has no key for (sealed by another process under another key since the
  // start checked its keys, secrets-check.ts) is not the request's fault, nor a bug: it is served
  // again once the process has the key.
  if (isDatabaseUnavailable(err) || err instanceof UnreadableSecretError) {
    return new HttpError(503, 'Service temporarily unavailable; retry later.', null, {
      'Retry-After': String(RETRY_AFTER_SECONDS),
    });
  }
  return undefined;
}

function bounded(error: HttpError, bounds: EnvelopeBounds): { message: string; metadata: ErrorMetadata | null } {
  const { metadata } = error;
  const errors = metadata?.errors
    ?.slice(0, bounds.fieldErrors)
    .map((e) => ({ path: clip(e.path, bounds.fieldPath), message: clip(e.message, bounds.fieldMessage) }));
  return {
    message: clip(error.message, bounds.message),
    metadata: metadata && errors ? { ...metadata, errors } : metadata,
  };
}

export interface ErrorHandlerOptions {
  logger: Logger;
  bounds: EnvelopeBounds;
}

export function errorHandler({ logger, bounds }: ErrorHandlerOptions): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const httpError = toHttpError(err, req, bounds.fieldErrors);
    if (!httpError) {
      // A response that breaks the contract is reported here too: it is a bug of the server.
      logger.error({ err, method: req.method, url: req.originalUrl }, 'unexpected error');
      sendError(res, 500, 'Internal server error.');
      return;
    }
    if (err instanceof UnreadableSecretError) {
      logger.error(
        { err, keyId: err.keyId, url: req.originalUrl },
        `a stored secret is sealed under key ${err.keyId}, which this server's keys do not open: give it that key (SECRETS_KEY, or SECRETS_KEY_PREVIOUS) and restart it`,
      );
    } else if (httpError.status === 503)
      logger.warn(
        { err, url: req.originalUrl },
        isReadOnlyRefusal(err) ? 'write refused: the database is read-only' : 'database unavailable',
      );
    res.set(httpError.headers);
    const { message, metadata } = bounded(httpError, bounds);
    sendError(res, httpError.status, message, metadata);
  };
}

/** The answer to a request for nothing the app serves, outside the API (under it: validation/operation-match.ts). */
export const notFoundHandler: RequestHandler = () => {
  throw noOperationError([]);
};

/** The answer to a request for no operation: 404, or 405 with `Allow` when its path takes the methods `allowed`. */
export function noOperationError(allowed: readonly string[]): HttpError {
  return allowed.length === 0
    ? new HttpError(404, NOT_FOUND)
    : new HttpError(405, METHOD_NOT_ALLOWED, null, { Allow: allowed.join(', ') });
}
