// One rung of the benchmark's ladder: a prefix of the server's own list of layers
// (server/request-pipeline.ts, as createApp mounts it), answering from the same constant table as
// the baselines when the prefix stops before the handler. Each rung's cost is its CPU time per
// request less that of the rung it adds to (bench/run.ts).
// Usage: ladder.ts <rung> <bodies.json> <database-url>, with BENCH_SECRETS_KEY (hex) set.
import './cpu-probe.js';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from 'express';
import * as releasedValidator from 'express-openapi-validator-released';
import pino from 'pino';
import { createSecretBox } from '../../server/domain/secrets.js';
import { systemClock } from '../../server/domain/time.js';
import { createMetrics } from '../../server/http/metrics.js';
import { UNREACHABLE_RATE_LIMIT } from '../../server/http/rate-limit.js';
import { warmUp } from '../../server/http/warm-up.js';
import { bindOperations } from '../../server/operations/bind.js';
import { operationHandlers } from '../../server/operations/index.js';
import {
  expressApp,
  mountPipeline,
  requestErrors,
  requestPipeline,
  type ValidatorPackage,
} from '../../server/request-pipeline.js';
import { createSpecAjv, loadSpec } from '../../server/spec.js';
import { openStore } from '../../server/store/index.js';
import { LADDER, rungLayers } from '../ladder-rungs.js';

const [rungArg = '', bodiesFile = '', databaseUrl = ''] = process.argv.slice(2);
const rung = LADDER.find((r) => r.id === rungArg);
if (!rung) throw new Error(`unknown rung ${rungArg}; one of ${LADDER.map((r) => r.id).join(', ')}`);

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

const specAjv = createSpecAjv(spec);
const layers = requestPipeline(
  {
    store,
    clock: systemClock,
    logger,
    spec,
    validateResponses: false,
    rateLimit: UNREACHABLE_RATE_LIMIT,
    authFailureLimit: UNREACHABLE_RATE_LIMIT,
    ...(rung.metrics && { metrics: createMetrics(spec, () => store.poolFigures()) }),
  },
  bindOperations(spec, operationHandlers),
  specAjv,
  ...(rung.releasedValidator ? [releasedValidator as unknown as ValidatorPackage] : []),
);
const mounted = rungLayers(rung, layers);
const app = expressApp();
mountPipeline(app, spec, mounted);
if (!mounted.some((layer) => layer.name === 'handler')) app.use(constantAnswer);
app.use(requestErrors(logger, spec, specAjv));

await warmUp(app, spec);
const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
process.on('SIGTERM', () => {
  server.close();
  void store.close().then(() => process.exit(0));
});
