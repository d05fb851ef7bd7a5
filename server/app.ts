// createApp(deps): middleware, validation against openapi.yaml, every operation of the spec bound
// to its handler, and the error handler. No I/O happens at import; everything the app touches is
// injected.
import { basename, dirname } from 'node:path';
import cors from 'cors';
import express, { type Express, type Request } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiValidatorOpts } from 'express-openapi-validator/dist/framework/types.js';
import type { Logger } from 'pino';
import type { KeyKind } from './domain/api-keys.js';
import {
  type DestinationType,
  type DestinationTypeRules,
  loadDestinationTypeRules,
} from './domain/destination-config-rules.js';
import type { Clock } from './domain/time.js';
import { authenticate, requireKeyKind } from './http/auth.js';
import { checkBodySizes } from './http/body-sizes.js';
import { checkContentType } from './http/content-type.js';
import { docsRouter } from './http/docs.js';
import { envelopeBounds, errorHandler, notFoundHandler, RETRY_AFTER_SECONDS, sendError } from './http/errors.js';
import { withHeadOperations } from './http/head-requests.js';
import type { Metrics } from './http/metrics.js';
import { authFailureThrottle, type RateLimitOptions, rateLimitPerKey } from './http/rate-limit.js';
import { admitBody } from './http/request-body.js';
import { requestLog } from './http/request-log.js';
import {
  checkRequestShape,
  findOperation,
  forOperations,
  jsonBody,
  matchedOperation,
  rejectPendingFieldErrors,
} from './http/request-shape.js';
import { rootAnswer } from './http/root.js';
import { securityHeaders } from './http/security-headers.js';
import { checkStorableText } from './http/storable-text.js';
import { requestValidationErrors } from './http/validation-errors.js';
import { checkWarmUpRequest } from './http/warm-up.js';
import { type AnyHandler, type BoundOperation, bindOperations } from './operations/bind.js';
import { operationHandlers } from './operations/index.js';
import { operationRoute } from './operations/route.js';
import { apiBasePaths, createSpecAjv, nodeAt, type OpenApiDocument, specOperations, specPath } from './spec.js';
import type { Store } from './store/index.js';

export const BODY_LIMIT_BYTES = 100 * 1024;

/** What the server serves outside the operations. */
const PATHS = {
  health: '/healthz',
  ready: '/readyz',
  openapiYaml: '/openapi.yaml',
  openapiJson: '/openapi.json',
  docs: '/docs',
} as const;

export interface AppDeps {
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
  /** Express's `trust proxy`: which proxies' X-Forwarded-For gives the client address; none when false. */
  trustProxy?: boolean | number | string;
  /** Origins allowed by CORS; CORS stays off when empty. */
  corsOrigins?: string[];
  /** The per-type config rules of the spec, when the caller has them already. */
  destinationTypes?: ReadonlyMap<DestinationType, DestinationTypeRules>;
  /** Whether the process is shutting down: /readyz then answers 503, so that balancers move on. */
  shuttingDown?: () => boolean;
  /** The handlers by operationId; the server's own unless a test gives others. */
  handlers?: Readonly<Record<string, AnyHandler>>;
  /** Prometheus metrics of every request (METRICS_PORT); none when absent. */
  metrics?: Metrics;
}

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

/** The key kinds that the operation of a request (as findOperation matched it) accepts. */
export function acceptedKeyKindsOf(operations: readonly BoundOperation[]): (req: Request) => readonly KeyKind[] {
  const accepted = new Map(operations.map((bound) => [bound.operation, bound.acceptedKeyKinds]));
  return (req) => {
    const found = matchedOperation(req);
    return (found && accepted.get(found.operation)) ?? [];
  };
}

export function createApp(deps: AppDeps): Express {
  const { store, clock, logger, spec, validateResponses, metrics, corsOrigins = [] } = deps;
  const rateLimit = metrics ? { ...deps.rateLimit, onRefused: () => metrics.refused('rate_limit') } : deps.rateLimit;
  const authFailureLimit = metrics
    ? { ...deps.authFailureLimit, onRefused: () => metrics.refused('auth_failures') }
    : deps.authFailureLimit;
  // Before anything else: a spec and handlers that do not match stop the server here.
  const operations = bindOperations(spec, deps.handlers ?? operationHandlers);
  const operationDeps = { store, clock, destinationTypes: deps.destinationTypes ?? loadDestinationTypeRules(spec) };

  const app = express();
  // Stryker disable next-line StringLiteral: helmet, which every request reaches (requestLog before it always calls next), removes X-Powered-By too.
  app.disable('x-powered-by');
  app.use(requestLog(logger, { probePaths: [PATHS.health, PATHS.ready], observer: metrics?.observer }));
  app.use(securityHeaders());
  if (corsOrigins.length > 0) app.use(cors(corsOptions(spec, corsOrigins)));
  app.set('etag', false);
  app.set('trust proxy', deps.trustProxy ?? false);
  // Express 5 parses query strings simply by default; the validator expects the extended parser.
  app.set('query parser', 'extended');

  // Everything under the spec's server URL goes through one router: one prefix match per request,
  // not one per middleware. It comes first: API requests, the traffic, skip the routes below.
  // The caller is admitted before the request is read or checked against the spec: a request
  // without a valid key costs a header check and at most one key lookup (openapi.yaml, "Order of
  // the checks"). Paths and methods of no operation go straight to the validator's 404 or 405.
  const api = express.Router();
  const admitCaller = express.Router();
  admitCaller.use(
    authenticate(store, clock, authFailureThrottle(authFailureLimit)),
    rateLimitPerKey(rateLimit),
    requireKeyKind(acceptedKeyKindsOf(operations)),
  );
  // Field by field explanations of a 400 and the sizes checked before the validator: one compilation of the spec.
  const specAjv = createSpecAjv(spec);
  const checkRequest = express.Router();
  checkRequest.use(
    checkContentType,
    // Every check that needs no body has passed: a client waiting for `100 Continue` gets it now.
    forOperations(admitBody(BODY_LIMIT_BYTES)),
    forOperations(jsonBody(BODY_LIMIT_BYTES)),
    checkRequestShape(spec),
    checkStorableText(spec),
    checkBodySizes(spec, specAjv),
    OpenApiValidator.middleware(validatorOptions(spec, validateResponses)),
    rejectPendingFieldErrors,
  );
  api.use(findOperation(spec), checkWarmUpRequest(checkRequest), forOperations(admitCaller), checkRequest);
  for (const operation of operations) api[operation.method](operation.route, operationRoute(operation, operationDeps));
  for (const basePath of apiBasePaths(spec)) app.use(basePath, api);

  // Stryker disable next-line StringLiteral: apiBasePaths always returns at least one path ('/' when the spec names no server), so the default never applies.
  const [apiBasePath = ''] = apiBasePaths(spec);
  app.get(
    '/',
    rootAnswer(spec.info, {
      // With its slash: the page's relative links resolve from there (/docs redirects to it).
      docs: `${PATHS.docs}/`,
      openapi_yaml: PATHS.openapiYaml,
      openapi_json: PATHS.openapiJson,
      api: apiBasePath,
    }),
  );
  app.get(PATHS.health, (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get(PATHS.ready, async (_req, res) => {
    if (deps.shuttingDown?.()) {
      sendError(res, 503, 'The server is shutting down.');
      return;
    }
    try {
      await store.ping();
      res.json({ status: 'ready' });
    } catch {
      res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      sendError(res, 503, 'The database is unreachable.');
    }
  });
  app.get(PATHS.openapiYaml, (_req, res) => {
    // Relative to its folder: send refuses a path with a dot-folder anywhere in it, the project's own parents included.
    res.type('application/yaml').sendFile(basename(specPath), { root: dirname(specPath) });
  });
  app.get(PATHS.openapiJson, (_req, res) => {
    res.json(spec);
  });
  app.use(PATHS.docs, docsRouter());

  app.use(notFoundHandler);
  const bounds = envelopeBounds(spec);
  app.use(
    errorHandler({
      logger,
      bounds,
      explainValidationErrors: requestValidationErrors(spec, specAjv, bounds.fieldErrors),
    }),
  );
  return app;
}
