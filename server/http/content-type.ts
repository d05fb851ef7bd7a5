// The Content-Type of a request body, checked before the body is read: one of the media types the
// operation's requestBody declares in openapi.yaml, with no parameter but `charset=utf-8` (JSON
// is UTF-8, RFC 8259). Anything else answers 415, so that a value a client makes up per request
// reaches neither the body parser nor the validator (whose caches it would otherwise grow).
import { parse } from 'content-type';
import type { RequestHandler } from 'express';
import type { OpenApiOperation } from '../spec.js';
import { HttpError, UNSUPPORTED_CHARSET, UNSUPPORTED_MEDIA_TYPE } from './errors.js';
import { matchedOperation } from './request-context.js';

const UNSUPPORTED_PARAMETER =
  'Unsupported media type parameter: send the body as application/json, with no parameter but charset=utf-8.';

/** Why a Content-Type does not suit an operation's request body; undefined when it does. */
export function contentTypeProblem(operation: OpenApiOperation, header: string): string | undefined {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(header);
  } catch {
    return UNSUPPORTED_MEDIA_TYPE;
  }
  if (!Object.hasOwn(operation.requestBody?.content ?? {}, parsed.type)) return UNSUPPORTED_MEDIA_TYPE;
  for (const [name, value] of Object.entries(parsed.parameters)) {
    if (name !== 'charset') return UNSUPPORTED_PARAMETER;
    if (value.toLowerCase() !== 'utf-8') return UNSUPPORTED_CHARSET;
  }
  return undefined;
}

/**
 * For a request to an operation that takes a body: its Content-Type, when it sends one, suits the
 * operation (a body without one is left to the validator's 415). Other requests, whose
 * Content-Type describes no body the server reads, go on whatever it says.
 */
export const checkContentType: RequestHandler = (req, _res, next) => {
  const operation = matchedOperation(req).definition;
  const header = req.headers['content-type'];
  if (operation.requestBody && header !== undefined) {
    const problem = contentTypeProblem(operation, header);
    if (problem) throw new HttpError(415, problem);
  }
  next();
};
