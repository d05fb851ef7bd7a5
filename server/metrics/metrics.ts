// Prometheus metrics with prom-client, on a registry of their own, served on METRICS_PORT only
// (metrics-server.ts). Every label value is the server's, never the client's: the operationId of
// the request's operation as the spec names it ("none" outside the operations), and the status
// from a fixed set (every status the spec documents and the server's own, else its class, "2xx"
// ... "5xx", or "aborted"). So the series are bounded whatever paths, headers or keys a client
// sends.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { operationOf } from '../http/request-context.js';
import type { ResponseObserver } from '../logging/request-log.js';
import { type OpenApiDocument, specOperations } from '../spec.js';
import type { PoolFigures } from '../store/store.js';
import type { SpanOutcome } from '../telemetry/tracing.js';

/** What refused a request before its operation ran. */
export type Refusal = 'rate_limit' | 'auth_failures';

export interface Metrics {
  readonly registry: Registry;
  /** Counts, times and tracks in flight every request, told by the request log (request-log.ts). */
  readonly observer: ResponseObserver;
  refused(reason: Refusal): void;
  /** A rate-limit count decided by this process's memory, Redis not answering in time (rate-limit-fallback.ts). */
  countedByFallback(limit: Refusal): void;
  /** Spans that tracing ended, by what became of them (telemetry/tracing.ts); none while tracing is off. */
  spans(outcome: SpanOutcome, count: number): void;
}

interface OperationSeries {
  duration: ReturnType<Histogram<'operation'>['labels']>;
  /** Requests answered, by status code or 'aborted': counted here, handed to prom-client when scraped. */
  answered: Map<number | 'aborted', number>;
}

/** Statuses the server answers outside what the spec documents (health, docs, unknown routes). */
const SERVER_STATUSES = [200, 304, 400, 404, 405, 413, 415, 429, 500, 503];
const NO_OPERATION = 'none';
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

function documentedStatuses(spec: OpenApiDocument): Set<number> {
  const documented = specOperations(spec).flatMap(({ operation }) =>
    Object.keys(operation.responses)
      .map(Number)
      .filter((status) => Number.isInteger(status)),
  );
  return new Set([...documented, ...SERVER_STATUSES]);
}

export function createMetrics(spec: OpenApiDocument, pool?: () => PoolFigures | undefined): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const statuses = documentedStatuses(spec);
  const statusLabel = (status: number) => (statuses.has(status) ? String(status) : `${Math.floor(status / 100)}xx`);

  const seriesByOperation = new Map<string, OperationSeries>();
  new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by operationId of the contract ("none" outside its operations) and status.',
    labelNames: ['operation', 'status'] as const,
    registers: [registry],
    // Counted in plain numbers per request, which costs less than prom-client's labelled inc().
    collect() {
      this.reset();
      for (const [operation, series] of seriesByOperation)
        for (const [status, count] of series.answered)
          this.inc({ operation, status: status === 'aborted' ? status : statusLabel(status) }, count);
    },
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request read to the answer sent, by operationId.',
    labelNames: ['operation'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  // Counted in a number and read when scraped: two calls into prom-client less per request.
  let inFlight = 0;
  new Gauge({
    name: 'http_requests_in_flight',
    help: 'Requests received and not yet answered.',
    registers: [registry],
    collect() {
      this.set(inFlight);
    },
  });
  const refusals = new Counter({
    name: 'http_refusals_total',
    help: 'Requests refused with 429: rate_limit (requests per key), auth_failures (failed authentications per address).',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const fallbacks = new Counter({
    name: 'rate_limit_fallback_total',
    help: "Rate-limit counts decided by this process's memory because Redis did not answer within REDIS_COMMAND_TIMEOUT_MS or was unreachable: rate_limit (requests per key), auth_failures (failed authentications per address).",
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  for (const reason of ['rate_limit', 'auth_failures'] satisfies Refusal[]) {
    refusals.labels(reason).inc(0);
    fallbacks.labels(reason).inc(0);
  }
  if (pool?.()) {
    new Gauge({
      name: 'db_pool_connections',
      help: 'PostgreSQL connections of this process: total open, idle, and requests waiting for one.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const figures = pool();
        if (!figures) return;
        this.labels('total').set(figures.total);
        this.labels('idle').set(figures.idle);
        this.labels('waiting').set(figures.waiting);
      },
    });
    new Gauge({
      name: 'db_pool_max_connections',
      help: 'The most PostgreSQL connections this process opens (DATABASE_POOL_SIZE).',
      registers: [registry],
      collect() {
        this.set(pool()?.max ?? 0);
      },
    });
  }

  // Each operation's series, made when first used and then found by the operationId the spec
  // gave, with no label string built per request.
  const seriesOf = (operation: string): OperationSeries => {
    let series = seriesByOperation.get(operation);
    if (!series) {
      series = { duration: duration.labels(operation), answered: new Map() };
      seriesByOperation.set(operation, series);
    }
    return series;
  };

  const observer: ResponseObserver = {
    started() {
      inFlight++;
    },
    answered(req, res, seconds) {
      inFlight--;
      const operation = operationOf(req)?.id ?? NO_OPERATION;
      const series = seriesOf(operation);
      const status = res.writableFinished ? res.statusCode : 'aborted';
      series.answered.set(status, (series.answered.get(status) ?? 0) + 1);
      series.duration.observe(seconds);
    },
  };

  const spans = new Counter({
    name: 'trace_spans_total',
    help: 'Spans ended with tracing on: exported, dropped at the full export queue (queue_full), or lost with a failed export (export_failed).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of ['exported', 'queue_full', 'export_failed'] satisfies SpanOutcome[])
    spans.labels(outcome).inc(0);
  return {
    registry,
    observer,
    refused: (reason) => refusals.labels(reason).inc(),
    countedByFallback: (limit) => fallbacks.labels(limit).inc(),
    spans: (outcome, count) => spans.labels(outcome).inc(count),
  };
}
