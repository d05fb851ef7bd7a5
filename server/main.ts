// Process entry: read the configuration, open and migrate the store, warm the validator, listen,
// then seed the demo workspace on an empty database and print its keys; stop on SIGTERM or SIGINT
// without failing a request (http/shutdown.ts).
// Listening comes before seeding: a start that fails (a busy port) has shown no key and stored
// none, so the next start seeds and shows them.
import type { operations } from '../generated/api.js';
import { createApp } from './app.js';
import { loadConfig } from './config.js';
import { openConfiguredStore } from './configured-store.js';
import { loadDestinationTypeRules } from './domain/destination-config-rules.js';
import { systemClock } from './domain/time.js';
import { describeFailure } from './failure.js';
import { listen } from './http/http-server.js';
import { warmUp } from './http/warm-up.js';
import { createLogger, exitAfterLogFlush, exitOnUncaughtException, logFormat } from './logging/logger.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { listenForMetrics } from './metrics/metrics-server.js';
import { bindOperations } from './operations/bind.js';
import { operationHandlers } from './operations/handlers.js';
import { type DemoSeed, seedDemo } from './provisioning/demo.js';
import { Provisioning } from './provisioning/provision.js';
import { connectRedisRateLimitCounters } from './rate-limit/rate-limit-redis.js';
import { gracefulShutdown, type Shutdown } from './shutdown.js';
import { loadSpec, type OpenApiDocument, operationPath } from './spec.js';

const SHUTDOWN_GRACE_MS = 10_000;
/** At exit, how long the spans still queued may take to reach the collector: an absent one holds nothing longer. */
const TRACE_FLUSH_MS = 2_000;

function demoInstructions(spec: OpenApiDocument, baseUrl: string, demo: DemoSeed): string {
  const auth = `-H 'Authorization: Bearer ${demo.management_key}'`;
  const url = (operationId: keyof operations, parameters: Record<string, string>) =>
    `${baseUrl}${operationPath(spec, operationId, parameters)}`;
  return [
    '',
    'Seeded a demo workspace. These keys are shown once and never stored:',
    `  management key: ${demo.management_key}`,
    `  standard key:   ${demo.standard_key}`,
    '',
    'Try the three operations:',
    `  curl -s ${auth} ${url('getKey', { hash: demo.key_hash })}`,
    `  curl -s -X PATCH ${auth} -H 'Content-Type: application/json' -d '{"sampling_rate": 0.5}' ${url('updateObservabilityDestination', { id: demo.destination_id })}`,
    `  curl -s ${auth} '${url('listPresetVersions', { slug: demo.preset_slug })}?limit=2'`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  const spec = loadSpec();
  // A spec and handlers that do not match stop the server before it touches anything.
  const operations = bindOperations(spec, operationHandlers);
  const config = loadConfig(process.env, (message) => console.warn(message));
  const logger = await createLogger(
    config.logLevel,
    logFormat({ stdoutIsTTY: process.stdout.isTTY === true, nodeEnv: config.nodeEnv }),
  );
  exitOnUncaughtException(logger);
  let metrics: Metrics | undefined;
  // Loaded only when on: with tracing off, the server loads no part of OpenTelemetry.
  const tracing =
    config.tracing &&
    (await import('./telemetry/server-tracing.js')).startServerTracing(config.tracing, spec, logger, (outcome, count) =>
      metrics?.spans(outcome, count),
    );
  const store = await openConfiguredStore(config, {
    onPoolError: (err) => logger.warn({ err }, 'idle database connection lost'),
    ...(tracing && { wrapDriver: tracing.driver }),
  });

  if (store.migrationsApplied.length > 0) logger.info({ migrations: store.migrationsApplied }, 'database migrated');
  const destinationTypes = loadDestinationTypeRules(spec);
  metrics = config.metricsPort === undefined ? undefined : createMetrics(spec, () => store.poolFigures());
  const sharedLimits = config.redisUrl
    ? await connectRedisRateLimitCounters({
        url: config.redisUrl,
        commandTimeoutMs: config.redisCommandTimeoutMs,
        logger,
        onFallback: (limit) => metrics?.countedByFallback(limit === 'per-key' ? 'rate_limit' : 'auth_failures'),
      })
    : undefined;
  const counters = sharedLimits && (tracing ? tracing.counters(sharedLimits.counters) : sharedLimits.counters);
  let shutdown: Shutdown | undefined;
  const app = createApp({
    operations,
    store,
    clock: systemClock,
    logger,
    spec,
    validateResponses: config.validateResponses,
    rateLimit: { ...config.rateLimit, ...(counters && { counters }) },
    authFailureLimit: { ...config.authFailureLimit, ...(counters && { counters }) },
    trustProxy: config.trustProxy,
    corsOrigins: config.corsOrigins,
    destinationTypes,
    shuttingDown: () => shutdown?.started === true,
    ...(metrics && { metrics }),
    ...(tracing && { tracing: tracing.requests }),
  });
  await warmUp(app, spec);

  const http = await listen(app, config.host, config.port, config.http);
  const metricsServer = metrics && (await listenForMetrics(metrics.registry, config.host, config.metricsPort ?? 0));
  const server = http.server;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const hostInUrl = config.host.includes(':') ? `[${config.host}]` : config.host;
  const baseUrl = `http://${hostInUrl}:${port}`;
  shutdown = gracefulShutdown({
    http,
    logger,
    delayMs: config.shutdownDelayMs,
    graceMs: SHUTDOWN_GRACE_MS,
    closeResources: async () => {
      await store.close();
      await sharedLimits?.close();
      await tracing?.shutdown(TRACE_FLUSH_MS);
      await metricsServer?.close();
    },
    exit: (code) => exitAfterLogFlush(logger, code),
  });
  process.on('SIGTERM', () => shutdown?.signal('SIGTERM'));
  process.on('SIGINT', () => shutdown?.signal('SIGINT'));

  let demo: DemoSeed | undefined;
  if ((await store.workspaces.count()) === 0)
    demo = await seedDemo(store, new Provisioning(spec, destinationTypes), systemClock());
  if (demo) console.log(demoInstructions(spec, config.publicUrl ?? baseUrl, demo));
  else {
    console.log(
      '\nThe database already has data, so no demo keys are printed (keys are shown only once).\n' +
        'Find a workspace with `npm run -s cli -- list-workspaces`, then create a key with\n' +
        '`npm run -s cli -- create-key --workspace <id> --name <name> --kind management`.\n',
    );
  }
  logger.info(
    {
      url: baseUrl,
      ...(metricsServer && { metrics: `http://${hostInUrl}:${metricsServer.port}/metrics` }),
      startupMs: Math.round(performance.now() - startedAt),
    },
    'listening',
  );
}

main().catch((err: unknown) => {
  // What a user can cause is one line; anything else is a bug, shown with its stack.
  console.error(describeFailure(err, () => (err instanceof Error && err.stack ? err.stack : String(err))));
  process.exit(1);
});
