// One server span per request, named as the contract names the operation (`GET /api/v1/keys/{hash}`,
// never the raw path, which holds a key's hash), continuing the caller's W3C trace context when its
// `traceparent` is valid and starting a new trace otherwise. Its attributes are the server's own
// values: the method, the route template, the operationId, the status, the workspace and which check
// refused the request; never a header, a parameter's value, a key, a hash or a body.
import { context, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { Request, RequestHandler, Response } from 'express';
import { isWarmUpRequest, requestContext } from '../http/request-context.js';
import { apiBasePaths, type OpenApiDocument, type SpecOperation } from '../spec.js';

declare global {
  namespace Express {
    interface Locals {
      /** The request's server span, when tracing is on. */
      span?: Span;
      /** When a timed stage of the request (the validator) began and, once it has passed, ended. */
      stage?: { attribute: string; startedAt: number; endedAt?: number };
    }
  }
}

/** Attribute names of this service's own, beside OpenTelemetry's semantic conventions. */
const ATTR_OPERATION_ID = 'api.operation_id';
const ATTR_WORKSPACE_ID = 'api.workspace_id';
const ATTR_REFUSED_BY = 'api.refused_by';

const propagator = new W3CTraceContextPropagator();
const headerGetter = {
  keys: (carrier: Request['headers']) => Object.keys(carrier),
  get: (carrier: Request['headers'], key: string) => carrier[key],
};

/** Which check answered a refusal, by the status the contract gives each ("Order of the checks"). */
function refusedBy(status: number, operationFound: boolean, authenticated: boolean): string | undefined {
  if (!operationFound) return status === 404 || status === 405 ? 'operation match' : undefined;
  if (status === 401) return 'authentication';
  if (status === 429) return authenticated ? 'rate limit' : 'authentication';
  if (status === 403) return 'key kind';
  if (status === 400 || status === 411 || status === 413 || status === 415) return 'validation';
  return undefined;
}

/** The route template of an operation under the server URL the request came in by. */
function routeTemplates(spec: OpenApiDocument) {
  const basePaths = apiBasePaths(spec).sort((a, b) => b.length - a.length);
  return (req: Request, found: SpecOperation): string => {
    const path = req.originalUrl;
    const base = basePaths.find((prefix) => path.startsWith(`${prefix}/`)) ?? basePaths[0] ?? '';
    return `${base}${found.template}`;
  };
}

export interface RequestSpanOptions {
  /** Paths of the health and readiness probes: not traced (a balancer asks several times a second). */
  probePaths?: readonly string[];
}

/** What the request pipeline mounts when tracing is on. */
export interface RequestTracing {
  /** The first layer: starts the request's span and ends it when the answer is sent. */
  requests(options: RequestSpanOptions): RequestHandler;
  /** Handlers to put around a stage of the request, whose time becomes `api.<name>.duration_ms`. */
  stage(name: string): { open: RequestHandler; close: RequestHandler };
}

export function requestTracing(tracer: Tracer, spec: OpenApiDocument): RequestTracing {
  return { requests: (options) => traceRequests(tracer, spec, options), stage: stageTimer };
}

function traceRequests(
  tracer: Tracer,
  spec: OpenApiDocument,
  { probePaths = [] }: RequestSpanOptions = {},
): RequestHandler {
  const probes = new Set<string>(probePaths);
  const routeOf = routeTemplates(spec);
  return (req, res, next) => {
    if (isWarmUpRequest(req) || probes.has(req.path)) return next();
    const parent = propagator.extract(ROOT_CONTEXT, req.headers, headerGetter);
    const span = tracer.startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } },
      parent,
    );
    res.locals.span = span;
    res.on('close', () => endRequestSpan(span, req, res, routeOf));
    context.with(trace.setSpan(parent, span), next);
  };
}

function endRequestSpan(span: Span, req: Request, res: Response, routeOf: ReturnType<typeof routeTemplates>): void {
  const { match, caller } = requestContext(req);
  const found = match?.operation;
  const status = res.statusCode;
  const refusal = refusedBy(status, found !== undefined, caller !== undefined);
  const route = found && routeOf(req, found);
  if (route) span.updateName(`${req.method} ${route}`);
  const stage = res.locals.stage;
  span.setAttributes({
    'http.response.status_code': status,
    ...(found && { 'http.route': route, [ATTR_OPERATION_ID]: found.operationId }),
    ...(caller && { [ATTR_WORKSPACE_ID]: caller.workspaceId }),
    ...(refusal && { [ATTR_REFUSED_BY]: refusal }),
    // A stage that did not pass (the validator refused the request) lasted until the answer.
    ...(stage && { [stage.attribute]: (stage.endedAt ?? performance.now()) - stage.startedAt }),
    ...(!res.writableFinished && { 'error.type': 'aborted' }),
  });
  // A server span is an error for a 5xx or an answer never sent; a 4xx is the client's.
  if (status >= 500 || !res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/**
 * Around a stage of the request (the validator): its time, in milliseconds, as an attribute of the
 * request's span. An attribute rather than a child span: a span costs the SDK some 9 µs to make and
 * export, on a request whose whole tracing budget is a few times that (BENCHMARKS.md, "Tracing's cost").
 */
function stageTimer(name: string): { open: RequestHandler; close: RequestHandler } {
  const attribute = `api.${name}.duration_ms`;
  return {
    open(_req, res, next) {
      if (res.locals.span) res.locals.stage = { attribute, startedAt: performance.now() };
      next();
    },
    close(_req, res, next) {
      if (res.locals.stage) res.locals.stage.endedAt = performance.now();
      next();
    },
  };
}
