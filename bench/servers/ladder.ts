// One rung of the benchmark's ladder: bare Express, or a prefix of the server's own request
// pipeline (server/request-pipeline.ts) answering from the same constant table as the baselines,
// or the server itself (createApp). Each rung's cost is its CPU time per request less that of the
// rung it adds to (bench/shared/ladder-rungs.ts).
// Usage: ladder.ts <rung> <bodies.json> <database-url>, with BENCH_SECRETS_KEY (hex) set.
import './cpu-probe.js';
import express from 'express';
import * as releasedValidator from 'express-openapi-validator-released';
import { createApp } from '../../server/app.js';
import { loadDestinationTypeRules } from '../../server/domain/destination-config-rules.js';
import { systemClock } from '../../server/domain/time.js';
import { envelopeBounds, errorHandler } from '../../server/http/errors.js';
import { createMetrics } from '../../server/metrics/metrics.js';
import { bindOperations } from '../../server/operations/bind.js';
import { operationHandlers } from '../../server/operations/handlers.js';
import { storedObjectErrors } from '../../server/operations/stored-object-rules.js';
import { type Layer, mountPipeline, type PipelineDeps, requestPipeline } from '../../server/request-pipeline.js';
import { createSpecAjv, loadSpec } from '../../server/spec.js';
import { startServerTracing } from '../../server/telemetry/server-tracing.js';
import { loadTracingSettings } from '../../server/telemetry/settings.js';
import type { Operation } from '../../server/validation/operation.js';
import { checkRequest } from '../../server/validation/request-checks.js';
import { requestValidator, validatorOptions } from '../../server/validation/validator.js';
import { LADDER, type Rung } from '../shared/ladder-rungs.js';
import { benchDeps, benchLogger, openBenchStore, serveOnLoopback } from './app-server.js';
import { constantAnswerHandler, readConstantAnswers } from './constant-answers.js';

const [rungArg = '', bodiesFile = '', databaseUrl = ''] = process.argv.slice(2);
const rung = LADDER.find((r) => r.id === rungArg);
if (!rung) throw new Error(`unknown rung ${rungArg}; one of ${LADDER.map((r) => r.id).join(', ')}`);

const constantAnswer = constantAnswerHandler(readConstantAnswers(bodiesFile));
const spec = loadSpec();
const logger = benchLogger;
// As main.ts starts it, from the OTEL_* variables the ladder's runner sets (its own sink as the collector).
const tracingSettings = rung.server === 'with tracing' ? loadTracingSettings(process.env) : undefined;
if (rung.server === 'with tracing' && !tracingSettings)
  throw new Error('the traced rung needs OTEL_TRACES_EXPORTER=otlp');
const tracing = tracingSettings && startServerTracing(tracingSettings, spec, logger, () => undefined);
const store = await openBenchStore(databaseUrl, tracing);
const deps: PipelineDeps = { ...benchDeps(store, spec), probePaths: [] };

/** The check step as the server mounts it, with the validator as released (which matches the route itself). */
function releasedValidatorLayer(
  operations: readonly Operation[],
  operationDeps: Parameters<typeof storedObjectErrors>[0],
): Layer {
  const handlers = releasedValidator.middleware(validatorOptions(spec, deps.validateResponses));
  const checks = checkRequest({
    spec,
    ajv: createSpecAjv(spec),
    operations,
    validate: requestValidator(handlers),
    storedObjectErrors: storedObjectErrors(operationDeps),
    fieldLimit: envelopeBounds(spec).fieldErrors,
  });
  return { name: 'request checks', scope: 'api', handlers: [checks] };
}

/** The server's pipeline up to the rung's layer, then the constant answer. */
function prefixApp({ upTo, releasedValidator: released }: Rung): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'extended');
  if (upTo) {
    const operations = bindOperations(spec, operationHandlers);
    const operationDeps = {
      store,
      clock: systemClock,
      contractVersion: spec.info.version,
      destinationTypes: loadDestinationTypeRules(spec),
    };
    const specAjv = createSpecAjv(spec);
    const layers = requestPipeline(deps, operations, operationDeps, specAjv).map((layer) =>
      released && layer.name === 'request checks' ? releasedValidatorLayer(operations, operationDeps) : layer,
    );
    const end = layers.findIndex((layer) => layer.name === upTo);
    mountPipeline(app, spec, layers.slice(0, end + 1));
  }
  app.use(constantAnswer);
  app.use(errorHandler({ logger, bounds: envelopeBounds(spec) }));
  return app;
}

const app = rung.server
  ? createApp({
      ...deps,
      ...(rung.server === 'with metrics' && { metrics: createMetrics(spec, () => store.poolFigures()) }),
      ...(tracing && { tracing: tracing.requests }),
    })
  : prefixApp(rung);
await serveOnLoopback(app, spec, store);
