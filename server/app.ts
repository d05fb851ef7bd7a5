// createApp(deps): the request path (request-pipeline.ts: every operation of the spec bound to its
// handler, checked against openapi.yaml on the way), the routes outside the API, and the error
// handler. No I/O happens at import; everything the app touches is injected.
import { basename, dirname } from 'node:path';
import type { Express } from 'express';
import { docsRouter } from './http/docs.js';
import { notFoundHandler, RETRY_AFTER_SECONDS, sendError } from './http/errors.js';
import { rootAnswer } from './http/root.js';
import { type AnyHandler, bindOperations } from './operations/bind.js';
import { operationHandlers } from './operations/index.js';
import {
  expressApp,
  mountPipeline,
  type PipelineDeps,
  PROBE_PATHS,
  requestErrors,
  requestPipeline,
} from './request-pipeline.js';
import { apiBasePaths, createSpecAjv, specPath } from './spec.js';

export { BODY_LIMIT_BYTES, validatorOptions } from './request-pipeline.js';

/** What the server serves outside the operations. */
const PATHS = {
  ...PROBE_PATHS,
  openapiYaml: '/openapi.yaml',
  openapiJson: '/openapi.json',
  docs: '/docs',
} as const;

export interface AppDeps extends PipelineDeps {
  /** Express's `trust proxy`: which proxies' X-Forwarded-For gives the client address; none when false. */
  trustProxy?: boolean | number | string;
  /** Whether the process is shutting down: /readyz then answers 503, so that balancers move on. */
  shuttingDown?: () => boolean;
  /** The handlers by operationId; the server's own unless a test gives others. */
  handlers?: Readonly<Record<string, AnyHandler>>;
}

export function createApp(deps: AppDeps): Express {
  const { store, logger, spec } = deps;
  // Before anything else: a spec and handlers that do not match stop the server here.
  const operations = bindOperations(spec, deps.handlers ?? operationHandlers);
  // Field by field explanations of a 400 and the sizes checked before the validator: one compilation of the spec.
  const specAjv = createSpecAjv(spec);

  const app = expressApp(deps.trustProxy);
  // API requests, the traffic, come first: they skip the routes below.
  mountPipeline(app, spec, requestPipeline(deps, operations, specAjv));

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
  app.use(requestErrors(logger, spec, specAjv));
  return app;
}
