// One JSON log line per request, with a request id: the client's X-Request-Id when well-formed,
// a new one otherwise, echoed in the response. Only the method, path, status and timing are
// logged: never headers (Authorization), never bodies (secrets). A probe that succeeds is logged
// at debug only: a balancer checks every instance several times a second.
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { isWarmUpRequest, requestContext } from '../http/request-context.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Told of every request the log sees (not the server's own at start), through the log's one 'close' listener. */
export interface ResponseObserver {
  /** The request has come in. */
  started(): void;
  /** Its answer is sent (writableFinished), or the client left first; `seconds` since it came in. */
  answered(req: Request, res: Response, seconds: number): void;
}

export interface RequestLogOptions {
  /** Paths of the health and readiness probes: at debug while they answer below 400, as any request otherwise. */
  probePaths?: readonly string[];
  /** The Prometheus metrics, when on (metrics.ts). */
  observer?: ResponseObserver;
}

export function requestLog(logger: Logger, { probePaths = [], observer }: RequestLogOptions = {}): RequestHandler {
  const probes = new Set<string | undefined>(probePaths);
  return (req, res, next) => {
    if (isWarmUpRequest(req)) return next();
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    const startedAt = performance.now();
    observer?.started();
    const path = req.originalUrl.split('?', 1)[0];
    // 'close' comes once per response, after it is sent or when the client goes first: on(), not
    // once() and its wrapper.
    res.on('close', () => {
      const elapsed = performance.now() - startedAt;
      observer?.answered(req, res, elapsed / 1000);
      const status = res.statusCode;
      const finished = res.writableFinished;
      // A 5xx is a warning here: the error handler logs the cause of a 500 as an error.
      const level = status >= 500 || !finished ? 'warn' : status < 400 && probes.has(path) ? 'debug' : 'info';
      // The caller's trace, or the request's own when it is sampled (telemetry/request-span.ts).
      const traced = requestContext(req).trace;
      const line = {
        req: { id, method: req.method, path },
        res: { status },
        responseTime: Math.round(elapsed),
        ...(traced && { trace_id: traced.traceId, ...(traced.spanId && { span_id: traced.spanId }) }),
      };
      logger[level](finished ? line : { ...line, aborted: true }, `${req.method} ${status}`);
    });
    next();
  };
}
