// The request path as one ordered list of named layers, read top to bottom: what every request goes
// through, then what a request under the spec's server URL goes through, in the order openapi.yaml
// states ("Order of the checks"): the operation found, the caller admitted (key, rate limit, key
// kind), the request read and checked against the spec, then the operation's handler.
// createApp mounts the whole list; the benchmark's ladder mounts prefixes of this same list.
import type { Ajv2020 } from 'ajv/dist/2020.js';
import cors from 'cors';
import express, { type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Clock } from './domain/time.js';
import { authenticate, requireKeyKind } from './http/auth.js';
import { checkContentType } from './http/content-type.js';
import { envelopeBounds } from './http/errors.js';
import { admitBody, jsonBody, whenOperationTakesBody } from './http/request-body.js';
import { matchedOperation } from './http/request-context.js';
import { securityHeaders } from './http/security-headers.js';
import { endWarmUpRequest, exceptWarmUp } from './http/warm-up.js';
import { requestLog } from './logging/request-log.js';
import type { Metrics } from './metrics/metrics.js';
import { dispatchOperations } from './operations/dispatch.js';
import { storedObjectErrors } from './operations/stored-object-rules.js';
import type { OperationDeps } from './operations/types.js';
import { authFailureThrottle, type RateLimitOptions, rateLimitPerKey } from './rate-limit/rate-limit.js';
import { apiBasePaths, type OpenApiDocument, resolveRef, specOperations } from './spec.js';
import type { Store } from './store/store.js';
import type { RequestTracing } from './telemetry/request-span.js';
import type { Operation } from './validation/operation.js';
import { matchOperation, OperationTable } from './validation/operation-match.js';
import { checkRequest } from './validation/request-checks.js';
import { requestValidator, validatorMiddleware } from './validation/validator.js';

export const BODY_LIMIT_BYTES = 100 * 1024;

/** A named step of the request path, mounted on the app for every request, or under the spec's server URLs. */
export interface Layer {
  name: string;
  scope: 'every request' | 'api';
  handlers: RequestHandler[];
}

export interface PipelineDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  spec: OpenApiDocument;
  /** Check every response against the spec (development and tests); requests are always checked. */
  validateResponses: boolean;
  /** Requests per key. */
  rateLimit: RateLimitOptions;
  /** Failed authentications per client address. */
  authFailureLimit: RateLimitOptions;
  /** Origins allowed by CORS; CORS stays off when empty. */
  corsOrigins?: string[];
  /** Prometheus metrics of every request (METRICS_PORT); none when absent. */
  metrics?: Metrics;
  /** Paths of the health and readiness probes, which the request log keeps at debug while they succeed. */
  probePaths: readonly string[];
  /** A span per request, with the validator's time, when tracing is on (OTEL_TRACES_EXPORTER). */
  tracing?: RequestTracing;
}

/** CORS for the spec's operations: their methods, their header parameters, the headers they answer. */
function corsOptions(spec: OpenApiDocument, origin: string[]): cors.CorsOptions {
  const operations = specOperations(spec);
  const responseHeaders = operations.flatMap(({ operation }) =>
    Object.values(operation.responses).flatMap((response) => {
      const resolved = resolveRef(spec, response) as { headers?: object };
      return Object.keys(resolved.headers ?? {});
    }),
  );
  const headerParameters = operations.flatMap(({ parameters }) =>
    parameters.filter((p) => p.in === 'header').map((p) => p.name),
  );
  return {
    origin,
    methods: [...new Set(operations.map(({ method }) => method.toUpperCase()))],
    allowedHeaders: [...new Set(['Authorization', 'Content-Type', 'X-Request-Id', ...headerParameters])],
    exposedHeaders: [...new Set([...responseHeaders, 'X-Request-Id'])],
    maxAge: 600,
  };
}

/**
 * One turn of the event loop between the checks and the handler: under concurrent load, the
 * requests that passed their checks in one turn reach their handlers together in the next, where
 * each would otherwise run from its first byte to its answer at once. `npm run bench:ab` measured
 * the CPU per request of a page of 50 at 0.97 of the nested routers' (whose ends took such a turn)
 * with it, and at 1.19 without (10 connections; BENCHMARKS.md, "The request path as one list").
 */
const nextTurn: RequestHandler = (_req, _res, next) => {
  setImmediate(next);
};

/** The key kinds that the operation of a request accepts. */
function acceptedKeyKindsOf(req: express.Request) {
  return matchedOperation(req).keyKinds;
}

function layer(name: string, scope: Layer['scope'], ...handlers: RequestHandler[]): Layer {
  return { name, scope, handlers };
}

/**
 * Every layer of the request path, in order. `operations` are the spec's, bound to their handlers;
 * `specAjv` compiles the spec once for the check step.
 */
export function requestPipeline(
  deps: PipelineDeps,
  operations: readonly Operation[],
  operationDeps: OperationDeps,
  specAjv: Ajv2020,
): Layer[] {
  const { store, clock, logger, spec, metrics, corsOrigins = [] } = deps;
  const rateLimit = metrics ? { ...deps.rateLimit, onRefused: () => metrics.refused('rate_limit') } : deps.rateLimit;
  const authFailureLimit = metrics
    ? { ...deps.authFailureLimit, onRefused: () => metrics.refused('auth_failures') }
    : deps.authFailureLimit;
  const validator = validatorMiddleware(spec, deps.validateResponses);
  return [
    // First, so that the request's span holds everything the server does for it.
    ...(deps.tracing
      ? [layer('tracing', 'every request', deps.tracing.requests({ probePaths: deps.probePaths }))]
      : []),
    layer(
      'request log',
      'every request',
      requestLog(logger, { probePaths: deps.probePaths, observer: metrics?.observer }),
    ),
    layer('security headers', 'every request', securityHeaders()),
    ...(corsOrigins.length > 0 ? [layer('cors', 'every request', cors(corsOptions(spec, corsOrigins)))] : []),
    // Every request under the API past this layer is for an operation of the spec; any other is
    // answered 404 or 405 here, without a key.
    layer('operation match', 'api', matchOperation(new OperationTable(spec, operations))),
    // The caller admitted before the request is read: a request without a valid key costs a
    // header check and at most one key lookup. The server's own requests at start (warm-up.ts)
    // carry no key: they skip the caller's admission, take the checks, and end before the handler.
    layer('authentication', 'api', exceptWarmUp(authenticate(store, clock, authFailureThrottle(authFailureLimit)))),
    layer('rate limit', 'api', exceptWarmUp(rateLimitPerKey(rateLimit))),
    layer('key kind', 'api', exceptWarmUp(requireKeyKind(acceptedKeyKindsOf))),
    layer('content type', 'api', checkContentType),
    // Every check that needs no body has passed: a client waiting for `100 Continue` gets it now.
    layer('body admission', 'api', admitBody(BODY_LIMIT_BYTES)),
    layer('json body', 'api', whenOperationTakesBody(jsonBody(BODY_LIMIT_BYTES))),
    layer(
      'request checks',
      'api',
      checkRequest({
        spec,
        ajv: specAjv,
        operations,
        validate: requestValidator(
          deps.tracing ? deps.tracing.timed('validator', validator.requests) : validator.requests,
        ),
        storedObjectErrors: storedObjectErrors(operationDeps),
        fieldLimit: envelopeBounds(spec).fieldErrors,
      }),
    ),
    ...(validator.responses.length > 0 ? [layer('response validation', 'api', ...validator.responses)] : []),
    // The server's own requests at start have compiled the validator: they end here.
    layer('warm-up end', 'api', endWarmUpRequest),
    layer('next turn', 'api', nextTurn),
    layer('operations', 'api', dispatchOperations(operationDeps, deps.validateResponses)),
  ];
}

/**
 * Mounts `layers` in their order: those for every request on the app, those of the API on one
 * router under each of the spec's server URLs (one prefix match per request, not one per layer).
 */
export function mountPipeline(app: Express, spec: OpenApiDocument, layers: readonly Layer[]): void {
  const api = express.Router();
  let apiLayerSeen = false;
  for (const { name, scope, handlers } of layers) {
    if (scope === 'api') {
      apiLayerSeen = true;
      api.use(handlers);
    } else if (apiLayerSeen) {
      throw new Error(`layer ${name}, for every request, comes after a layer of the API`);
    } else {
      app.use(handlers);
    }
  }
  for (const basePath of apiBasePaths(spec)) app.use(basePath, api);
}
