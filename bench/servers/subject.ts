// The server under test, as in production (request validation on, response validation off, one
// log line per request, written to /dev/null), on the database seed.ts prepared.
// Usage: subject.ts <database-url>, with BENCH_SECRETS_KEY (hex, as given to seed.ts) set;
// BENCH_AUTH_FAILURE_LIMIT, when set, is the failed authentications an address may make per minute;
// BENCH_METRICS=1 adds the Prometheus metrics, as METRICS_PORT does; the OTEL_* variables turn
// tracing on, as they do for the server.
import './cpu-probe.js';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp } from '../../server/app.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { systemClock } from '../../server/domain/time.js';
import { createMetrics } from '../../server/http/metrics.js';
import { UNREACHABLE_RATE_LIMIT } from '../../server/http/rate-limit.js';
import { warmUp } from '../../server/http/warm-up.js';
import { loadSpec } from '../../server/spec.js';
import { openStore } from '../../server/store/index.js';
import { loadTracingSettings } from '../../server/telemetry/settings.js';

const [databaseUrl = ''] = process.argv.slice(2);
const spec = loadSpec();
const logger = pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: true }));
const tracingSettings = loadTracingSettings(process.env);
const tracing =
  tracingSettings &&
  (await import('../../server/telemetry/server-tracing.js')).startServerTracing(
    tracingSettings,
    spec,
    logger,
    () => undefined,
  );
const store = await openStore(databaseUrl, createSecretBox(Buffer.from(process.env.BENCH_SECRETS_KEY ?? '', 'hex')), {
  poolSize: 10,
  ...(tracing && { wrapDriver: tracing.driver }),
});
const app = createApp({
  store,
  clock: systemClock,
  logger,
  spec,
  validateResponses: false,
  rateLimit: UNREACHABLE_RATE_LIMIT,
  authFailureLimit: process.env.BENCH_AUTH_FAILURE_LIMIT
    ? { windowMs: 60_000, limit: Number(process.env.BENCH_AUTH_FAILURE_LIMIT) }
    : UNREACHABLE_RATE_LIMIT,
  ...(process.env.BENCH_METRICS === '1' && { metrics: createMetrics(spec, () => store.poolFigures()) }),
  ...(tracing && { tracing: tracing.requests }),
});
await warmUp(app, spec);
const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
process.on('SIGTERM', () => {
  server.close();
  void store.close().then(() => process.exit(0));
});
