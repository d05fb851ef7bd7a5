// createApp(deps): middleware, validation against openapi.yaml, every operation of the spec bound
// to its handler, and the error handler. No I/O happens at import; everything the app touches is
// injected.
import { basename, dirname } from 'node:path';
import express, { type Express } from 'express';
import {
  type DestinationType,
  type DestinationTypeRules,
  loadDestinationTypeRules,
} from './domain/destination-config-rules.js';
import { docsRouter } from './http/docs.js';
import { envelopeBounds, errorHandler, notFoundHandler, RETRY_AFTER_SECONDS, sendError } from './http/errors.js';
import { rootAnswer } from './http/root.js';
import { bindOperations } from './operations/bind.js';
import { operationHandlers } from './operations/handlers.js';
import { mountPipeline, type PipelineDeps, requestPipeline } from './request-pipeline.js';
import { apiBasePaths, createSpecAjv, specPath } from './spec.js';
import type { Operation } from './validation/operation.js';

/** What the server serves outside the operations. */
const PATHS = {
  health: '/healthz',
  ready: '/readyz',
  openapiYaml: '/openapi.yaml',
  openapiJson: '/openapi.json',
  docs: '/docs',
} as const;

/** What the request path needs (request-pipeline.ts), and what the app adds around it. */
export interface AppDeps extends Omit<PipelineDeps, 'probePaths'> {
  /** Express's `trust proxy`: which proxies' X-Forwarded-For gives the client address; none when false. */
  trustProxy?: boolean | number | string;
  /** The per-type config rules of the spec, when the caller has them already. */
  destinationTypes?: ReadonlyMap<DestinationType, DestinationTypeRules>;
  /** Whether the process is shutting down: /readyz then answers 503, so that balancers move on. */
  shuttingDown?: () => boolean;
  /** The spec's operations bound to their handlers (bindOperations); the server's own unless given. */
  operations?: readonly Operation[];
}

export function createApp(deps: AppDeps): Express {
  const { store, clock, logger, spec } = deps;
  // Before anything else: a spec and handlers that do not match stop the server here.
  const operations = deps.operations ?? bindOperations(spec, operationHandlers);
  const operationDeps = {
    store,
    clock,
    contractVersion: spec.info.version,
    destinationTypes: deps.destinationTypes ?? loadDestinationTypeRules(spec),
  };
  // Field by field explanations of a 400 and the sizes checked before the validator: one compilation of the spec.
  const specAjv = createSpecAjv(spec);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', deps.trustProxy ?? false);
  // Express 5 parses query strings simply by default; the validator expects the extended parser.
  app.set('query parser', 'extended');
  // The request path, layer by layer, in server/request-pipeline.ts. API requests, the traffic,
  // come first and skip the routes below.
  mountPipeline(
    app,
    spec,
    requestPipeline({ ...deps, probePaths: [PATHS.health, PATHS.ready] }, operations, operationDeps, specAjv),
  );

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
  app.use(errorHandler({ logger, bounds: envelopeBounds(spec) }));
  return app;
}
