// The OpenTelemetry SDK's export path as the server runs it when tracing is on: the configured
// sampler and the SDK's ids, and spans handed as finished records to its BatchSpanProcessor (a bounded
// queue: past it spans are dropped, never waited for), sent by the official OTLP/HTTP exporter, which
// reads its endpoint, headers and timeout from the OTEL_EXPORTER_OTLP_* variables. No tracer and no
// ambient context: a request decides sampling once, at its start, and carries its own trace
// (request-span.ts), so that one not sampled makes no span and pays for no context propagation.
// Nothing here is loaded when tracing is off (main.ts imports it only then).
import {
  type Attributes,
  createNoopMeter,
  type HrTime,
  type Link,
  type MeterProvider,
  type SpanContext,
  type SpanKind,
  type SpanStatus,
  SpanStatusCode,
} from '@opentelemetry/api';
import { ExportResultCode, hrTime, hrTimeDuration, type InstrumentationScope } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, type Resource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  type IdGenerator,
  ParentBasedSampler,
  RandomIdGenerator,
  type ReadableSpan,
  type Sampler,
  type SpanExporter,
  type TimedEvent,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace';
import { ATTR_ERROR_TYPE, ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { SamplerName, TracingSettings } from './settings.js';

/** What became of spans the server ended: sent, dropped at a full queue, or lost with a failed export. */
export type SpanOutcome = 'exported' | 'queue_full' | 'export_failed';

export interface TracingHooks {
  /** Counts spans by outcome (the metrics' `trace_spans_total`). */
  onSpans?: (outcome: SpanOutcome, count: number) => void;
  /** Told once each time exports start failing, and once when they succeed again: not per batch. */
  onExportStateChange?: (failing: boolean, error: Error | undefined) => void;
}

/** A span that has ended, its times as `performance.now()` gives them. */
export interface EndedSpan {
  name: string;
  kind: SpanKind;
  context: SpanContext;
  parent: SpanContext | undefined;
  startedAt: number;
  endedAt: number;
  attributes: Attributes;
  /** An error span: a failed call, or a server span of a 5xx or an answer never sent. */
  failed: boolean;
}

export interface Tracing {
  /** The sampler OTEL_TRACES_SAMPLER names. */
  sampler: Sampler;
  /** Random trace and span ids, as the SDK makes them. */
  ids: IdGenerator;
  /** Queues an ended span for export (dropped when the queue is full). */
  export(span: EndedSpan): void;
  /** Sends what is queued, waiting at most `timeoutMs` (an absent collector does not hold the exit). */
  shutdown(timeoutMs: number): Promise<void>;
}

/** The processor's own count of spans, which the SDK records under this name (its semantic conventions). */
const SPANS_PROCESSED = 'otel.sdk.processor.span.processed';

function samplerOf(name: SamplerName, ratio: number): Sampler {
  const root = name.endsWith('always_on')
    ? new AlwaysOnSampler()
    : name.endsWith('always_off')
      ? new AlwaysOffSampler()
      : new TraceIdRatioBasedSampler(ratio);
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

/** A meter for the SDK's self-observation that keeps only its count of processed spans, by outcome. */
function spanOutcomeMeter(onSpans: (outcome: SpanOutcome, count: number) => void): MeterProvider {
  const noop = createNoopMeter();
  const meter = Object.assign(Object.create(noop), {
    createCounter(name: string, options?: object) {
      if (name !== SPANS_PROCESSED) return noop.createCounter(name, options);
      return {
        add(count: number, attributes?: Attributes) {
          const error = attributes?.[ATTR_ERROR_TYPE];
          onSpans(error === undefined ? 'exported' : error === 'queue_full' ? 'queue_full' : 'export_failed', count);
        },
      };
    },
  });
  return { getMeter: () => meter };
}

/** The exporter, watched: a change between succeeding and failing exports is told once. */
function watchedExporter(exporter: SpanExporter, onChange: TracingHooks['onExportStateChange']): SpanExporter {
  if (!onChange) return exporter;
  let failing = false;
  return {
    export(spans, done) {
      exporter.export(spans, (result) => {
        const nowFailing = result.code !== ExportResultCode.SUCCESS;
        if (nowFailing !== failing) {
          failing = nowFailing;
          onChange(failing, result.error);
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

/** No links: the sampler is given none, and no span has any. */
export const NO_LINKS: Link[] = [];
const NO_EVENTS: TimedEvent[] = [];
const UNSET = { code: SpanStatusCode.UNSET };
const ERROR = { code: SpanStatusCode.ERROR };

/**
 * An ended span as the batch processor and the exporter read it. A class rather than a literal
 * built by spreads: one object shape for every span of every sampled request.
 */
class EndedSpanRecord implements ReadableSpan {
  readonly name: string;
  readonly kind: SpanKind;
  readonly parentSpanContext: SpanContext | undefined;
  readonly startTime: HrTime;
  readonly endTime: HrTime;
  readonly duration: HrTime;
  readonly status: SpanStatus;
  readonly attributes: Attributes;
  readonly links = NO_LINKS;
  readonly events = NO_EVENTS;
  readonly ended = true;
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  readonly #context: SpanContext;

  constructor(
    span: EndedSpan,
    readonly resource: Resource,
    readonly instrumentationScope: InstrumentationScope,
  ) {
    this.name = span.name;
    this.kind = span.kind;
    this.#context = span.context;
    this.parentSpanContext = span.parent;
    this.startTime = hrTime(span.startedAt);
    this.endTime = hrTime(span.endedAt);
    this.duration = hrTimeDuration(this.startTime, this.endTime);
    this.status = span.failed ? ERROR : UNSET;
    this.attributes = span.attributes;
  }

  spanContext(): SpanContext {
    return this.#context;
  }
}

export function startTracing(settings: TracingSettings, version: string, hooks: TracingHooks = {}): Tracing {
  const resource = defaultResource().merge(
    resourceFromAttributes({
      ...settings.resourceAttributes,
      [ATTR_SERVICE_NAME]: settings.serviceName,
      [ATTR_SERVICE_VERSION]: version,
    }),
  );
  const instrumentationScope = { name: 'keys-destinations-presets-api', version };
  const processor = new BatchSpanProcessor({
    exporter: watchedExporter(new OTLPTraceExporter(), hooks.onExportStateChange),
    ...settings.batch,
    ...(hooks.onSpans && { selfObsMeterProvider: spanOutcomeMeter(hooks.onSpans) }),
  });
  return {
    sampler: samplerOf(settings.sampler, settings.ratio),
    ids: new RandomIdGenerator(),
    export(span) {
      processor.onEnd(new EndedSpanRecord(span, resource, instrumentationScope));
    },
    async shutdown(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        processor.shutdown().catch(() => undefined),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}
