// The OpenTelemetry SDK as the server runs it when tracing is on: spans batched by the SDK's
// BatchSpanProcessor (a bounded queue: past it spans are dropped, never waited for) and sent by the
// official OTLP/HTTP exporter, which reads its endpoint, headers and timeout from the OTEL_EXPORTER_OTLP_*
// variables. The active span follows a request's asynchronous work through AsyncLocalStorage.
// Nothing here is loaded when tracing is off (main.ts imports it only then).
import { type Attributes, context, createNoopMeter, type MeterProvider, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
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

export interface Tracing {
  tracer: Tracer;
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

export function startTracing(settings: TracingSettings, version: string, hooks: TracingHooks = {}): Tracing {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const resource = defaultResource().merge(
    resourceFromAttributes({
      ...settings.resourceAttributes,
      [ATTR_SERVICE_NAME]: settings.serviceName,
      [ATTR_SERVICE_VERSION]: version,
    }),
  );
  const processor = new BatchSpanProcessor({
    exporter: watchedExporter(new OTLPTraceExporter(), hooks.onExportStateChange),
    ...settings.batch,
    ...(hooks.onSpans && { selfObsMeterProvider: spanOutcomeMeter(hooks.onSpans) }),
  });
  const provider = new TracerProvider({
    resource,
    sampler: samplerOf(settings.sampler, settings.ratio),
    spanProcessors: [processor],
  });
  return {
    tracer: provider.getTracer('keys-destinations-presets-api', version),
    async shutdown(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        provider.shutdown().catch(() => undefined),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}
