// A request's body, before it is read, and when it does not come.
// - `Expect: 100-continue`: a client that waits for `100 Continue` before it sends the body. The
//   HTTP server (http-server.ts) hands such a request over without answering 100 (Node's
//   'checkContinue'); the app answers 100 once the request has passed the checks that need no
//   body (the key, the rate limit, the key's kind, the Content-Type, the declared length), right
//   before the body is read. A request refused before that gets its 401, 403, 413, 415... and no
//   invitation to send the body.
// - A declared length over the limit is refused at once: the body parser would read (and throw
//   away) the whole body before it answered 413.
// - A refusal sent before the body has arrived closes the connection (sendError, errors.ts).
// - The body is read, as JSON, only for an operation that takes one.
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import express, { type RequestHandler } from 'express';
import { HttpError } from './errors.js';
import { matchedOperation, requestContext } from './request-context.js';

/** For the HTTP server: this request waits for `100 Continue`, which the app sends when it reads the body. */
export function holdContinue(req: IncomingMessage): void {
  requestContext(req).awaitingContinue = true;
}

/** Before the body is read: 413 for a declared length over the limit, else `100 Continue` to a request waiting for it. */
export function admitBody(limitBytes: number): RequestHandler {
  return (req, res, next) => {
    const length = Number(req.headers['content-length']);
    if (length > limitBytes) throw new HttpError(413, `Request body is larger than ${limitBytes} bytes.`);
    if (requestContext(req).awaitingContinue) res.writeContinue();
    next();
  };
}

/**
 * The JSON body parser, noting which requests had an empty body, and which had one that is not
 * UTF-8: the parser reads such bytes as U+FFFD, so the body it gives is not what was sent.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  return express.json({
    limit: limitBytes,
    // The only media type of a request body (operations/bind.ts), and checkContentType admits no other.
    type: 'application/json',
    verify: (req, _res, buffer) => {
      if (buffer.length === 0) requestContext(req).emptyBody = true;
      else if (!isUtf8(buffer)) requestContext(req).notUtf8Body = buffer;
    },
  });
}

/** Runs `handler` for a request to an operation that takes a body; a body sent to any other is not read. */
export function whenOperationTakesBody(handler: RequestHandler): RequestHandler {
  return (req, res, next) => (matchedOperation(req).definition.requestBody ? handler(req, res, next) : next());
}
