// Tracing as the server runs it: the SDK started from the settings, and the pieces each part of the
// server takes from it (the request's spans, the database's, Redis's). One log line each time the
// collector stops taking spans and one when it takes them again, never one per batch.
import type { Logger } from 'pino';
import type { CounterFactory } from '../rate-limit/rate-limit.js';
import type { OpenApiDocument } from '../spec.js';
import type { QueryDriver } from '../store/prepared.js';
import { type RequestTracing, requestTracing } from './request-span.js';
import type { TracingSettings } from './settings.js';
import { tracedCounters, tracedDriver } from './traced-calls.js';
import { type SpanOutcome, startTracing } from './tracing.js';

export interface ServerTracing {
  requests: RequestTracing;
  driver(driver: QueryDriver, system: 'sqlite' | 'postgresql'): QueryDriver;
  counters(counters: CounterFactory): CounterFactory;
  shutdown(timeoutMs: number): Promise<void>;
}

export function startServerTracing(
  settings: TracingSettings,
  spec: OpenApiDocument,
  logger: Logger,
  onSpans: (outcome: SpanOutcome, count: number) => void,
): ServerTracing {
  const tracing = startTracing(settings, spec.info.version, {
    onSpans,
    onExportStateChange: (failing, error) => {
      if (failing)
        logger.warn(
          { err: error?.message },
          'traces: the collector does not take spans; they are dropped until it does',
        );
      else logger.info('traces: the collector takes spans again');
    },
  });
  logger.info(
    { serviceName: settings.serviceName, sampler: settings.sampler, ratio: settings.ratio },
    'traces: exported over OTLP/HTTP',
  );
  return {
    requests: requestTracing(tracing),
    driver: tracedDriver,
    counters: tracedCounters,
    shutdown: tracing.shutdown,
  };
}
