// One rung of the benchmark's ladder: bare Express with the server's layers added one at a time,
// in the server's order, answering from the same constant table as the baselines until the last
// rung, which is the server itself (createApp). Each rung's cost is its CPU time per request less
// that of the rung it adds to (bench/ladder.ts).
// Usage: ladder.ts <rung> <bodies.json> <database-url>, with BENCH_SECRETS_KEY (hex) set.
import './cpu-probe.js';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import * as patchedValidator from 'express-openapi-validator';
import * as releasedValidator from 'express-openapi-validator-released';
import pino from 'pino';
import { acceptedKeyKindsOf, BODY_LIMIT_BYTES, createApp, validatorOptions } from '../../server/app.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { systemClock } from '../../server/domain/time.js';
import { authenticate, requireKeyKind } from '../../server/http/auth.js';
import { checkContentType } from '../../server/http/content-type.js';
import { envelopeBounds, errorHandler } from '../../server/http/errors.js';
import { createMetrics } from '../../server/http/metrics.js';
import { authFailureThrottle, rateLimitPerKey, UNREACHABLE_RATE_LIMIT } from '../../server/http/rate-limit.js';
import { requestLog } from '../../server/http/request-log.js';
import {
  checkRequestShape,
  findOperation,
  jsonBody,
  rejectPendingFieldErrors,
} from '../../server/http/request-shape.js';
import { securityHeaders } from '../../server/http/security-headers.js';
import { requestValidationErrors } from '../../server/http/validation-errors.js';
import { warmUp } from '../../server/http/warm-up.js';
import { bindOperations } from '../../server/operations/bind.js';
import { operationHandlers } from '../../server/operations/index.js';
import { apiBasePaths, createSpecAjv, loadSpec } from '../../server/spec.js';
import { openStore } from '../../server/store/index.js';
import { LADDER, type RungId } from '../ladder-rungs.js';

const [rungArg = '', bodiesFile = '', databaseUrl = ''] = process.argv.slice(2);
const rung = LADDER.find((r) => r.id === rungArg);
if (!rung) throw new Error(`unknown rung ${rungArg}; one of ${LADDER.map((r) => r.id).join(', ')}`);
const has = (id: RungId) => rung.layers.includes(id);

const bodies = JSON.parse(readFileSync(bodiesFile, 'utf8')) as Record<string, string>;
const spec = loadSpec();
const store = await openStore(databaseUrl, createSecretBox(Buffer.from(process.env.BENCH_SECRETS_KEY ?? '', 'hex')), {
  poolSize: 10,
});
const logger = pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: true }));

const constantAnswer: RequestHandler = (req, res) => {
  const body = bodies[`${req.method} ${req.originalUrl}`];
  res
    .status(body === undefined ? 404 : 200)
    .type('application/json')
    .send(body ?? '{}');
};

function ladderApp(): express.Express {
  const app = express();
  app.disable('x-powered-by');
  if (has('log')) app.use(requestLog(logger));
  if (has('helmet')) app.use(securityHeaders());
  app.set('etag', false);
  app.set('query parser', 'extended');
  if (!has('parse')) {
    app.use(constantAnswer);
    return app;
  }
  // In the server's order (server/app.ts): the caller admitted, then the request read and checked.
  const api = express.Router();
  api.use(findOperation(spec));
  const operations = bindOperations(spec, operationHandlers);
  if (has('auth')) {
    api.use(authenticate(store, systemClock, authFailureThrottle(UNREACHABLE_RATE_LIMIT)));
    if (has('limit')) api.use(rateLimitPerKey(UNREACHABLE_RATE_LIMIT));
    api.use(requireKeyKind(acceptedKeyKindsOf(operations)));
  }
  api.use(checkContentType, jsonBody(BODY_LIMIT_BYTES), checkRequestShape(spec));
  const validator = has('released') ? releasedValidator : has('patched') ? patchedValidator : undefined;
  if (validator) api.use(validator.middleware(validatorOptions(spec, false)), rejectPendingFieldErrors);
  for (const operation of operations) api[operation.method](operation.route, constantAnswer);
  for (const basePath of apiBasePaths(spec)) app.use(basePath, api);
  app.use(
    errorHandler({
      logger,
      bounds: envelopeBounds(spec),
      explainValidationErrors: requestValidationErrors(spec, createSpecAjv(spec)),
    }),
  );
  return app;
}

const app = has('handler')
  ? createApp({
      store,
      clock: systemClock,
      logger,
      spec,
      validateResponses: false,
      rateLimit: UNREACHABLE_RATE_LIMIT,
      authFailureLimit: UNREACHABLE_RATE_LIMIT,
      ...(has('metrics') && { metrics: createMetrics(spec, () => store.poolFigures()) }),
    })
  : ladderApp();
await warmUp(app, spec);
const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
process.on('SIGTERM', () => {
  server.close();
  void store.close().then(() => process.exit(0));
});
