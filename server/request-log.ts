// One JSON log line per request, with a request id: the client's X-Request-Id when well-formed,
// a new one otherwise, echoed in the response. Only the method, path, status and timing are
// logged: never headers (Authorization), never bodies (secrets).
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestLog(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId(req, res) {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    // A 5xx is a warning here: the error handler logs the cause of a 500 as an error.
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'warn' : 'info'),
    customSuccessMessage: (req, res) => `${req.method} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${res.statusCode}`,
    // The error handler logs unexpected errors itself, with what is safe to log.
    wrapSerializers: false,
  }) as unknown as RequestHandler;
}
