// The server under test, as in production (request validation on, response validation off, one
// log line per request, written to /dev/null), on the database seed.ts prepared.
// Usage: subject.ts <database-url>, with BENCH_SECRETS_KEY (hex, as given to seed.ts) set;
// BENCH_AUTH_FAILURE_LIMIT, when set, is the failed authentications an address may make per minute;
// BENCH_METRICS=1 adds the Prometheus metrics, as METRICS_PORT does; the OTEL_* variables turn
// tracing on, as they do for the server.
import './cpu-probe.js';
import { createApp } from '../../server/app.js';
import { createMetrics } from '../../server/metrics/metrics.js';
import { UNREACHABLE_RATE_LIMIT } from '../../server/rate-limit/rate-limit.js';
import { loadSpec } from '../../server/spec.js';
import { loadTracingSettings } from '../../server/telemetry/settings.js';
import { benchDeps, benchLogger, openBenchStore, serveOnLoopback } from './app-server.js';

const [databaseUrl = ''] = process.argv.slice(2);
const spec = loadSpec();
const logger = benchLogger;
const tracingSettings = loadTracingSettings(process.env);
const tracing =
  tracingSettings &&
  (await import('../../server/telemetry/server-tracing.js')).startServerTracing(
    tracingSettings,
    spec,
    logger,
    () => undefined,
  );
const store = await openBenchStore(databaseUrl, tracing);
const app = createApp({
  ...benchDeps(store, spec),
  authFailureLimit: process.env.BENCH_AUTH_FAILURE_LIMIT
    ? { windowMs: 60_000, limit: Number(process.env.BENCH_AUTH_FAILURE_LIMIT) }
    : UNREACHABLE_RATE_LIMIT,
  ...(process.env.BENCH_METRICS === '1' && { metrics: createMetrics(spec, () => store.poolFigures()) }),
  ...(tracing && { tracing: tracing.requests }),
});
await serveOnLoopback(app, spec, store);
