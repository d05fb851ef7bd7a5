// The request path as one ordered list of named layers, read top to bottom: what every request goes
// through, then what a request under the spec's server URL goes through, in the order openapi.yaml
// states ("Order of the checks"): the operation found once, the caller admitted (key, rate limit,
// key kind), the request read and checked against the spec, then the operation's handler.
// createApp mounts the whole list; the benchmark's ladder (bench/ladder-rungs.ts) mounts prefixes
// of this same list.
import type { Ajv2020 } from 'ajv/dist/2020.js';
import cors from 'cors';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiValidatorOpts } from 'express-openapi-validator/dist/framework/types.js';
import type { Logger } from 'pino';
import {
  type DestinationType,
  type DestinationTypeRules,
  loadDestinationTypeRules,
} from './domain/destination-config-rules.js';
import type { Clock } from './domain/time.js';
import { authenticate, requireKeyKind } from './http/auth.js';
import { checkBodySizes } from './http/body-sizes.js';
import { checkContentType } from './http/content-type.js';
import { envelopeBounds, errorHandler } from './http/errors.js';
import { withHeadOperations } from './http/head-requests.js';
import type { Metrics } from './http/metrics.js';
import { findOperation, forOperations, matchedOperation, operationMatcher } from './http/operation-matcher.js';
import { authFailureThrottle, type RateLimitOptions, rateLimitPerKey } from './http/rate-limit.js';
import { admitBody } from './http/request-body.js';
import { requestLog } from './http/request-log.js';
import { checkRequestShape, jsonBody, rejectPendingFieldErrors } from './http/request-shape.js';
import { securityHeaders } from './http/security-headers.js';
import { checkStorableText } from './http/storable-text.js';
import { requestValidationErrors } from './http/validation-errors.js';
import { checkWarmUpRequest } from './http/warm-up.js';
import type { BoundOperation } from './operations/bind.js';
import { dispatch } from './operations/dispatch.js';
import { apiBasePaths, nodeAt, type OpenApiDocument, specOperations } from './spec.js';
import type { Store } from './store/index.js';

export const BODY_LIMIT_BYTES = 100 * 1024;

/** Paths of the health and readiness probes, which the request log keeps at debug while they succeed. */
export const PROBE_PATHS = { health: '/healthz', ready: '/readyz' } as const;

export type LayerName =
  | 'metrics'
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
  | 'handler';

export interface Layer {
  name: LayerName;
  /** Every request the app gets, or only those under the spec's server URL. */
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
  /** The per-type config rules of the spec, when the caller has them already. */
  destinationTypes?: ReadonlyMap<DestinationType, DestinationTypeRules>;
  /** Prometheus metrics of every request (METRICS_PORT); none when absent. */
  metrics?: Metrics;
}

/** The request validator's package: the server's (patched at install); the benchmark's ladder gives the released one. */
export type ValidatorPackage = Pick<typeof OpenApiValidator, 'middleware'>;

/** CORS for the spec's operations: their methods, their header parameters, the headers they answer. */
function corsOptions(spec: OpenApiDocument, origin: string[]): cors.CorsOptions {
  const operations = specOperations(spec);
  const responseHeaders = operations.flatMap(({ operation }) =>
    Object.values(operation.responses).flatMap((response) => {
      const resolved = (typeof response.$ref === 'string' ? nodeAt(spec, response.$ref) : response) as {
        headers?: object;
      };
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

/** express-openapi-validator as this server runs it; the benchmark's validator baseline runs it alike. */
export function validatorOptions(spec: OpenApiDocument, validateResponses: boolean): OpenApiValidatorOpts {
  return {
    // The validator annotates the document it is given; it gets its own copy, where HEAD is its path's GET.
    apiSpec: withHeadOperations(spec) as unknown as string,
    // Every failing field, not only the first, so that one 400 names them all.
    validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
    // Stryker disable next-line ObjectLiteral: without removeAdditional the validator passes undefined to Ajv, whose default is false: nothing is removed either way.
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
 * Every layer of the request path, in order. `operations` are the spec's, bound to their handlers;
 * `specAjv` compiles the spec once for the sizes check and the 400's explanation (requestErrors).
 */
export function requestPipeline(
  deps: PipelineDeps,
  operations: readonly BoundOperation[],
  specAjv: Ajv2020,
  validator: ValidatorPackage = OpenApiValidator,
): Layer[] {
  const { store, clock, logger, spec, metrics, corsOrigins = [] } = deps;
  const rateLimit = metrics ? { ...deps.rateLimit, onRefused: () => metrics.refused('rate_limit') } : deps.rateLimit;
  const authFailureLimit = metrics
    ? { ...deps.authFailureLimit, onRefused: () => metrics.refused('auth_failures') }
    : deps.authFailureLimit;
  const operationDeps = { store, clock, destinationTypes: deps.destinationTypes ?? loadDestinationTypeRules(spec) };
  const api = (name: LayerName, ...handlers: RequestHandler[]): Layer => ({ name, scope: 'api', handlers });

  // The request read and checked against the spec, once its caller is admitted.
  const checks: Layer[] = [
    api('content type', checkContentType),
    // Every check that needs no body has passed: a client waiting for `100 Continue` gets it now.
    api('body admission', forOperations(admitBody(BODY_LIMIT_BYTES))),
    api('json body', forOperations(jsonBody(BODY_LIMIT_BYTES))),
    api('request shape', checkRequestShape),
    api('storable text', checkStorableText(spec)),
    // The sizes before the validator: the body it reads is cut down to what its schema allows.
    api('body sizes', checkBodySizes(spec, specAjv)),
    api('validator', ...validator.middleware(validatorOptions(spec, deps.validateResponses))),
    api('pending field errors', rejectPendingFieldErrors),
  ];
  const checkRequest = express.Router();
  for (const layer of checks) checkRequest.use(layer.handlers);

  return [
    ...(metrics ? [everyRequest('metrics', metrics.track)] : []),
    everyRequest('request log', requestLog(logger, { probePaths: Object.values(PROBE_PATHS) })),
    everyRequest('security headers', securityHeaders()),
    ...(corsOrigins.length > 0 ? [everyRequest('cors', cors(corsOptions(spec, corsOrigins)))] : []),
    // Paths and methods of no operation go on to the validator's 404 or 405, without a key.
    api('operation match', findOperation(operationMatcher(spec, operations))),
    // The server's own requests at start: checked first, so that they compile the validator.
    api('warm-up checks', checkWarmUpRequest(checkRequest)),
    // The caller admitted before the request is read: a request without a valid key costs a
    // header check and at most one key lookup.
    api('authentication', forOperations(authenticate(store, clock, authFailureThrottle(authFailureLimit)))),
    api('rate limit', forOperations(rateLimitPerKey(rateLimit))),
    api('key kind', forOperations(requireKeyKind((req) => matchedOperation(req)?.operation.acceptedKeyKinds ?? []))),
    ...checks,
    api('handler', dispatch(operationDeps)),
  ];
}

function everyRequest(name: LayerName, handler: RequestHandler): Layer {
  return { name, scope: 'every request', handlers: [handler] };
}

/** A bare Express app with the settings the request path expects. */
export function expressApp(trustProxy: boolean | number | string = false): Express {
  const app = express();
  // Stryker disable next-line StringLiteral: helmet, which every request reaches (requestLog before it always calls next), removes X-Powered-By too.
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', trustProxy);
  // Express 5 parses query strings simply by default; the validator expects the extended parser.
  app.set('query parser', 'extended');
  return app;
}

/**
 * Mounts `layers` in their order: those for every request on the app, those of the API on one
 * router under each of the spec's server URLs (one prefix match per request, not one per layer).
 */
export function mountPipeline(app: Express, spec: OpenApiDocument, layers: readonly Layer[]): void {
  const api = express.Router();
  let inApi = false;
  for (const layer of layers) {
    if (layer.scope === 'api') {
      inApi = true;
      api.use(layer.handlers);
    } else if (inApi) {
      throw new Error(`layer ${layer.name}, for every request, comes after a layer of the API`);
    } else app.use(layer.handlers);
  }
  for (const basePath of apiBasePaths(spec)) app.use(basePath, api);
}

/** The error handler: every error as the envelope, a 400 naming its fields. */
export function requestErrors(logger: Logger, spec: OpenApiDocument, specAjv: Ajv2020): ErrorRequestHandler {
  const bounds = envelopeBounds(spec);
  return errorHandler({
    logger,
    bounds,
    explainValidationErrors: requestValidationErrors(spec, specAjv, bounds.fieldErrors),
  });
}
