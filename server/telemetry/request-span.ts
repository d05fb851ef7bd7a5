// One server span per sampled request, named as the contract names the operation (`GET
// /api/v1/keys/{hash}`, never the raw path, which holds a key's hash), continuing the caller's W3C
// trace context when its `traceparent` is valid and starting a new trace otherwise; its calls out of
// the process (statements, Redis counts) as its children. Its attributes are the server's own
// values: the method, the route template, the operationId, the status, the workspace and which check
// refused the request; never a header, a parameter's value, a key, a hash or a body.
//
// Sampling is decided once, as the request comes in, with the configured sampler. A request not
// sampled gets no span, no attribute and no recorder: only the caller's trace id, for its log line.
// A sampled one records plain numbers while it runs (its start, the validator's time, its calls),
// and its spans are made once, when its answer is sent.
import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type SpanAttributes,
  type SpanContext,
  SpanKind,
  TraceFlags,
  type TraceState,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { SamplingDecision } from '@opentelemetry/sdk-trace';
import type { Request, RequestHandler, Response } from 'express';
import { isWarmUpRequest, type RequestTrace, requestContext } from '../http/request-context.js';
import type { CallTrace } from '../store/call-trace.js';
import { NO_LINKS, type Tracing } from './tracing.js';

/** Attribute names of this service's own, beside OpenTelemetry's semantic conventions. */
const ATTR_OPERATION_ID = 'api.operation_id';
const ATTR_WORKSPACE_ID = 'api.workspace_id';
const ATTR_REFUSED_BY = 'api.refused_by';

/** The sampler decides before the request is read: it is given its method as the name, and no attribute. */
const NONE: Attributes = Object.freeze({});

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
  if (status === 400 || status === 413 || status === 415) return 'validation';
  return undefined;
}

/** The route template of an operation under the server URL the request came in by. */
export interface RequestSpanOptions {
  /** Paths of the health and readiness probes: not traced (a balancer asks several times a second). */
  probePaths: readonly string[];
}

/** What the request pipeline mounts when tracing is on. */
export interface RequestTracing {
  /** The first layer: decides whether the request is sampled, and makes its spans when the answer is sent. */
  requests(options: RequestSpanOptions): RequestHandler;
  /** A stage's handlers, timed: their time becomes `api.<name>.duration_ms` on a sampled request's span. */
  timed(name: string, handlers: RequestHandler[]): RequestHandler[];
}

/** A sampled request's trace while it runs: what its spans are made of when it ends. */
class SampledRequest implements RequestTrace {
  readonly calls: CallTrace = [];
  /** A timed stage of the request (the validator): when it began and, once it has passed, ended. */
  stage?: { attribute: string; startedAt: number; endedAt?: number };

  constructor(
    readonly traceId: string,
    readonly spanId: string,
    readonly traceState: TraceState | undefined,
    readonly parent: SpanContext | undefined,
    readonly samplerAttributes: SpanAttributes | undefined,
    readonly startedAt: number,
  ) {}
}

export function requestTracing(tracing: Tracing): RequestTracing {
  return { requests: (options) => traceRequests(tracing, options), timed: timedStage };
}

/** The caller's trace context, from a valid `traceparent` (and its `tracestate`); the root one for none. */
function callerContext(req: Request): Context {
  if (req.headers.traceparent === undefined) return ROOT_CONTEXT;
  return propagator.extract(ROOT_CONTEXT, req.headers, headerGetter);
}

function traceRequests(tracing: Tracing, { probePaths }: RequestSpanOptions): RequestHandler {
  const probes = new Set<string>(probePaths);
  const { sampler, ids } = tracing;
  return (req, res, next) => {
    if (isWarmUpRequest(req) || probes.has(req.path)) return next();
    const caller = callerContext(req);
    const parent = trace.getSpanContext(caller);
    const traceId = parent?.traceId ?? ids.generateTraceId();
    const sampling = sampler.shouldSample(caller, traceId, req.method, SpanKind.SERVER, NONE, NO_LINKS);
    if (sampling.decision !== SamplingDecision.RECORD_AND_SAMPLED) {
      if (parent) requestContext(req).trace = { traceId };
      return next();
    }
    const sampled = new SampledRequest(
      traceId,
      ids.generateSpanId(),
      sampling.traceState ?? parent?.traceState,
      parent,
      sampling.attributes,
      performance.now(),
    );
    requestContext(req).trace = sampled;
    res.on('close', () => endRequest(tracing, sampled, req, res));
    next();
  };
}

function endRequest(tracing: Tracing, sampled: SampledRequest, req: Request, res: Response): void {
  const endedAt = performance.now();
  const { operation: found, route: foundRoute, caller } = requestContext(req);
  const status = res.statusCode;
  const refusal = refusedBy(status, found !== undefined, caller !== undefined);
  const route = found && foundRoute && `${foundRoute.basePath}${found.template}`;
  const server: SpanContext = {
    traceId: sampled.traceId,
    spanId: sampled.spanId,
    traceFlags: TraceFlags.SAMPLED,
    traceState: sampled.traceState,
  };
  // Set one by one, never spread: the same few shapes on every request.
  const attributes: Attributes = { ...sampled.samplerAttributes };
  attributes['http.request.method'] = req.method;
  attributes['http.response.status_code'] = status;
  if (found) {
    attributes['http.route'] = route;
    attributes[ATTR_OPERATION_ID] = found.id;
  }
  if (caller) attributes[ATTR_WORKSPACE_ID] = caller.workspaceId;
  if (refusal) attributes[ATTR_REFUSED_BY] = refusal;
  const { stage } = sampled;
  if (stage) attributes[stage.attribute] = (stage.endedAt ?? endedAt) - stage.startedAt;
  if (!res.writableFinished) attributes['error.type'] = 'aborted';
  tracing.export({
    name: route ? `${req.method} ${route}` : req.method,
    kind: SpanKind.SERVER,
    context: server,
    parent: sampled.parent,
    startedAt: sampled.startedAt,
    endedAt,
    attributes,
    // A server span is an error for a 5xx or an answer never sent; a 4xx is the client's.
    failed: status >= 500 || !res.writableFinished,
  });
  for (const call of sampled.calls) {
    tracing.export({
      name: call.name,
      kind: SpanKind.CLIENT,
      context: {
        traceId: server.traceId,
        spanId: tracing.ids.generateSpanId(),
        traceFlags: TraceFlags.SAMPLED,
        traceState: server.traceState,
      },
      parent: server,
      startedAt: call.startedAt,
      endedAt: call.endedAt,
      attributes: call.errorType === undefined ? call.attributes : { ...call.attributes, 'error.type': call.errorType },
      failed: call.errorType !== undefined,
    });
  }
}

/**
 * The handlers of a stage of the request (the validator), the same handlers, timed: for a sampled
 * request, its time in milliseconds becomes `api.<name>.duration_ms` on the request's span. An
 * attribute rather than a child span, and no handler of its own: a request not sampled pays one
 * check at each end of the stage, on a request whose whole tracing budget is a few microseconds.
 */
function timedStage(name: string, handlers: RequestHandler[]): RequestHandler[] {
  const attribute = `api.${name}.duration_ms`;
  const timed = [...handlers];
  const last = timed.at(-1);
  if (!last) return timed;
  // The end is wrapped first, then the start around whatever is first: for a stage of one handler,
  // the start then runs before the end reads it.
  timed[timed.length - 1] = (req, res, next) => {
    const stage = stageOf(req);
    if (!stage) return last(req, res, next);
    // It ends when its last handler hands on, having passed the request or refused it; a refusal
    // thrown instead of handed on leaves it to end with the request.
    return last(req, res, (err?: unknown) => {
      stage.endedAt = performance.now();
      next(err);
    });
  };
  const first = timed[0] as RequestHandler;
  timed[0] = (req, res, next) => {
    const sampled = requestContext(req).trace;
    if (sampled instanceof SampledRequest) sampled.stage = { attribute, startedAt: performance.now() };
    return first(req, res, next);
  };
  return timed;
}

/** The timed stage a sampled request is in; undefined for a request not sampled. */
function stageOf(req: Request): SampledRequest['stage'] {
  const sampled = requestContext(req).trace;
  return sampled instanceof SampledRequest ? sampled.stage : undefined;
}
