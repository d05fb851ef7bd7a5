// What the benchmark's servers built on the app share: a log that goes nowhere, the store opened on
// the seeded database (its statements traced when tracing is on), and how each comes up: the
// validator warmed as the server warms it, a free loopback port printed as one JSON line for the
// parent, and a SIGTERM that closes the listener and the store before it exits.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import pino from 'pino';
import { createSecretBox } from '../../server/domain/secrets.js';
import { systemClock } from '../../server/domain/time.js';
import { warmUp } from '../../server/http/warm-up.js';
import { UNREACHABLE_RATE_LIMIT } from '../../server/rate-limit/rate-limit.js';
import type { OpenApiDocument } from '../../server/spec.js';
import { openStore, type Store } from '../../server/store/store.js';
import type { ServerTracing } from '../../server/telemetry/server-tracing.js';

export const benchLogger = pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: true }));

/** What the app is built on, as in production (requests validated, responses not), with no rate limit in the way. */
export function benchDeps(store: Store, spec: OpenApiDocument) {
  return {
    store,
    clock: systemClock,
    logger: benchLogger,
    spec,
    validateResponses: false,
    rateLimit: UNREACHABLE_RATE_LIMIT,
    authFailureLimit: UNREACHABLE_RATE_LIMIT,
  };
}

/**
 * The seeded database, with the secrets key the seeding process was given; BENCH_ROW_WRITES=lock-first
 * makes every PATCH on PostgreSQL lock its row first (bench/row-writes.ts).
 */
export function openBenchStore(databaseUrl: string, tracing: ServerTracing | undefined): Promise<Store> {
  return openStore(databaseUrl, createSecretBox(Buffer.from(process.env.BENCH_SECRETS_KEY ?? '', 'hex')), {
    poolSize: 10,
    ...(process.env.BENCH_ROW_WRITES === 'lock-first' && { rowWrites: 'lock-first' as const }),
    ...(tracing && { wrapDriver: tracing.driver }),
  });
}

export async function serveOnLoopback(app: Express, spec: OpenApiDocument, store: Store): Promise<void> {
  await warmUp(app, spec);
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  console.log(JSON.stringify({ port: (server.address() as AddressInfo).port }));
  process.on('SIGTERM', () => {
    server.close();
    void store.close().then(() => process.exit(0));
  });
}
