// The request path as one ordered list of named layers, read top to bottom: what every request goes
// through, then what a request under the spec's server URL goes through, in the order openapi.yaml
// states ("Order of the checks"): the operation found, the caller admitted (key, rate limit, key
// kind), the request read and checked against the spec, then the operation's handler.
// createApp mounts the whole list; the benchmark's ladder mounts prefixes of this same list.
import type { Ajv2020 } from 'ajv/dist/2020.js';
import cors from 'cors';
import express, { type Express, type RequestHandler, type Router } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiValidatorOpts } from 'express-openapi-validator/dist/framework/types.js';
import type { Logger } from 'pino';
import type { Clock } from './domain/time.js';
import { authenticate, requireKeyKind } from './http/auth.js';
import { checkBodySizes } from './http/body-sizes.js';
import { checkContentType } from './http/content-type.js';
import { withHeadOperations } from './http/head-requests.js';
import type { Metrics } from './http/metrics.js';
import { authFailureThrottle, type RateLimitOptions, rateLimitPerKey } from './http/rate-limit.js';
import { admitBody } from './http/request-body.js';
import { matchOf } from './http/request-context.js';
import { requestLog } from './http/request-log.js';
import {
  checkRequestShape,
  findOperation,
  forOperations,
  forOperationsWithBody,
  jsonBody,
  rejectPendingFieldErrors,
} from './http/request-shape.js';
import { securityHeaders } from './http/security-headers.js';
import { checkStorableText } from './http/storable-text.js';
import { checkWarmUpRequest } from './http/warm-up.js';
import type { BoundOperation } from './operations/bind.js';
import { dispatchOperations } from './operations/dispatch.js';
import type { OperationDeps } from './operations/types.js';
import { apiBasePaths, type OpenApiDocument, resolveRef, specOperations } from './spec.js';
import type { Store } from './store/index.js';
import type { RequestTracing } from './telemetry/request-span.js';

export const BODY_LIMIT_BYTES = 100 * 1024;

export type LayerName =
  | 'tracing'
  | 'request log'
  | 'security headers'
  | 'cors'
  | 'operation match'
  | 'warm-up checks'
  | 'authentication'
  | 'rate limit'
  | 'key kind'
  | 'content type'
  | 'body admission'
  | 'json body'
  | 'request shape'
  | 'storable text'
  | 'body sizes'
  | 'validator'
  | 'pending field errors'
  | 'operations';

/**
 * Where a layer is mounted: on the app for every request; on the router under the spec's server
 * URLs; on the admission router, which only requests for an operation enter; on the router of the
 * checks, which the warm-up's own requests also go through before anything else.
 */
export type Stage = 'every request' | 'api' | 'admission' | 'checks';

export interface Layer {
  name: LayerName;
  stage: Stage;
  attach(routers: StageRouters): void;
}

export interface StageRouters {
  app: Express;
  api: Router;
  checks: Router;
  admission: Router;
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

/** express-openapi-validator as this server runs it; the benchmark's validator baseline runs it alike. */
export function validatorOptions(spec: OpenApiDocument, validateResponses: boolean): OpenApiValidatorOpts {
  return {
    // The validator annotates the document it is given; it gets its own copy, where HEAD is its path's GET.
    apiSpec: withHeadOperations(spec) as unknown as string,
    // Every failing field, not only the first, so that one 400 names them all.
    validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
    // Stryker disable next-line ObjectLiteral: equivalent, see mutation/equivalents.md#ajv-removeadditional-default
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    // Stryker disable next-line BooleanLiteral: equivalent, see mutation/equivalents.md#validator-security-after-authentication
    validateSecurity: false,
    // CI lints the contract and every test run checks it here; production skips the check at start.
    validateApiSpec: validateResponses,
    // The contract takes no multipart bodies: no upload middleware on every request.
    fileUploader: false,
    $refParser: { mode: 'dereference' },
  };
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

/** The key kinds that the operation of a request (as findOperation matched it) accepts. */
function acceptedKeyKindsOf(req: express.Request) {
  return matchOf(req)?.operation.acceptedKeyKinds ?? [];
}

function layer(name: LayerName, stage: Stage, ...handlers: RequestHandler[]): Layer {
  return { name, stage, attach: (routers) => routers[stage === 'every request' ? 'app' : stage].use(handlers) };
}

/**
 * Every layer of the request path, in order. `operations` are the spec's, bound to their handlers;
 * `specAjv` compiles the spec once for the sizes check (and the 400's explanation, in the error handler).
 */
export function requestPipeline(
  deps: PipelineDeps,
  operations: readonly BoundOperation[],
  operationDeps: OperationDeps,
  specAjv: Ajv2020,
): Layer[] {
  const { store, clock, logger, spec, metrics, corsOrigins = [] } = deps;
  const rateLimit = metrics ? { ...deps.rateLimit, onRefused: () => metrics.refused('rate_limit') } : deps.rateLimit;
  const authFailureLimit = metrics
    ? { ...deps.authFailureLimit, onRefused: () => metrics.refused('auth_failures') }
    : deps.authFailureLimit;
  const validatorHandlers = OpenApiValidator.middleware(validatorOptions(spec, deps.validateResponses));
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
    // Paths and methods of no operation go on to the validator's 404 or 405, without a key.
    layer('operation match', 'api', findOperation(spec, operations)),
    // The server's own requests at start go through the checks first, so that they compile the validator.
    {
      name: 'warm-up checks',
      stage: 'api',
      attach: ({ api, checks }) => api.use(checkWarmUpRequest(checks)),
    },
    // The caller admitted before the request is read: a request without a valid key costs a
    // header check and at most one key lookup.
    layer('authentication', 'admission', authenticate(store, clock, authFailureThrottle(authFailureLimit))),
    layer('rate limit', 'admission', rateLimitPerKey(rateLimit)),
    layer('key kind', 'admission', requireKeyKind(acceptedKeyKindsOf)),
    layer('content type', 'checks', checkContentType),
    // Every check that needs no body has passed: a client waiting for `100 Continue` gets it now.
    layer('body admission', 'checks', forOperations(admitBody(BODY_LIMIT_BYTES))),
    layer('json body', 'checks', forOperationsWithBody(jsonBody(BODY_LIMIT_BYTES))),
    layer('request shape', 'checks', checkRequestShape(operations)),
    layer('storable text', 'checks', checkStorableText(spec)),
    // The sizes before the validator: the body it reads is cut down to what its schemas allow.
    layer('body sizes', 'checks', checkBodySizes(spec, specAjv)),
    layer(
      'validator',
      'checks',
      ...(deps.tracing ? deps.tracing.timed('validator', validatorHandlers) : validatorHandlers),
    ),
    layer('pending field errors', 'checks', rejectPendingFieldErrors),
    layer('operations', 'api', dispatchOperations(operations, operationDeps, deps.validateResponses)),
  ];
}

/**
 * Mounts `layers` in their order: those for every request on the app; those of the API on one
 * router under each of the spec's server URLs (one prefix match per request, not one per layer),
 * where the admission router (entered only by requests for an operation) and the router of the
 * checks take their place where their first layer stands.
 */
export function mountPipeline(app: Express, spec: OpenApiDocument, layers: readonly Layer[]): void {
  const routers: StageRouters = { app, api: express.Router(), admission: express.Router(), checks: express.Router() };
  const placed = new Set<Stage>();
  for (const current of layers) {
    if (current.stage === 'every request' && placed.size > 0)
      throw new Error(`layer ${current.name}, for every request, comes after a layer of the API`);
    if (current.stage === 'admission' && !placed.has('admission')) routers.api.use(forOperations(routers.admission));
    if (current.stage === 'checks' && !placed.has('checks')) routers.api.use(routers.checks);
    if (current.stage !== 'every request') placed.add(current.stage);
    current.attach(routers);
  }
  for (const basePath of apiBasePaths(spec)) app.use(basePath, routers.api);
}
