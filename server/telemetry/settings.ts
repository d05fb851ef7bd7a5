// Tracing's settings, from the environment variables the OpenTelemetry specification names. Off
// unless OTEL_TRACES_EXPORTER is `otlp`. Every value is checked here, at start, so that a bad one is
// a one-line configuration error rather than a warning the SDK logs and then ignores. The OTLP
// exporter reads its own variables (endpoint, headers, timeout) itself; the endpoint is checked here.
import { ConfigError } from '../config-error.js';

export const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type SamplerName = (typeof SAMPLERS)[number];

export interface TracingSettings {
  serviceName: string;
  sampler: SamplerName;
  /** The share of root traces kept by the ratio samplers, from 0 to 1. */
  ratio: number;
  /** OTEL_RESOURCE_ATTRIBUTES, decoded. */
  resourceAttributes: Record<string, string>;
  /** The batch span processor's OTEL_BSP_* settings, with the specification's defaults. */
  batch: {
    scheduledDelayMillis: number;
    exportTimeoutMillis: number;
    maxQueueSize: number;
    maxExportBatchSize: number;
  };
}

/** The only OTLP protocol of the exporter the server ships (OTLP/HTTP with JSON bodies). */
const PROTOCOL = 'http/json';

function checkEndpoint(name: string, value: string | undefined): void {
  if (!value) return;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`${name} must be an http(s) URL, got ${JSON.stringify(value)}`);
}

function parseRatio(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 1;
  const ratio = Number(value);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got ${JSON.stringify(value)}`);
  return ratio;
}

function parsePositiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(parsed) || parsed < 1)
    throw new ConfigError(`${name} must be a positive integer, got ${JSON.stringify(env[name])}`);
  return parsed;
}

/** `key=value` pairs separated by commas, each part percent-encoded, as the specification writes them. */
function parseResourceAttributes(value: string | undefined): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const pair of (value ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const parts = pair.split('=');
    const [key = '', text = ''] = parts.map((part) => part.trim());
    const wrong = (why: string) =>
      new ConfigError(`OTEL_RESOURCE_ATTRIBUTES: ${JSON.stringify(pair)} ${why} (expected key=value,key=value)`);
    if (parts.length !== 2) throw wrong('is not one key=value');
    if (key === '') throw wrong('has an empty key');
    try {
      attributes[decodeURIComponent(key)] = decodeURIComponent(text);
    } catch {
      throw wrong('is not percent-encoded');
    }
  }
  return attributes;
}

/** Tracing's settings, or undefined when tracing is off. */
export function loadTracingSettings(env: NodeJS.ProcessEnv): TracingSettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const exporter = (env.OTEL_TRACES_EXPORTER ?? '').trim().toLowerCase();
  if (exporter === '' || exporter === 'none') return undefined;
  if (exporter !== 'otlp')
    throw new ConfigError(`OTEL_TRACES_EXPORTER must be otlp or none, got ${JSON.stringify(env.OTEL_TRACES_EXPORTER)}`);
  for (const name of ['OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL']) {
    const protocol = env[name]?.trim();
    if (protocol && protocol !== PROTOCOL)
      throw new ConfigError(
        `${name} must be ${PROTOCOL} (the exporter this server ships), got ${JSON.stringify(protocol)}`,
      );
  }
  checkEndpoint('OTEL_EXPORTER_OTLP_ENDPOINT', env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
  checkEndpoint('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
  const sampler = (env.OTEL_TRACES_SAMPLER?.trim() || 'parentbased_always_on') as SamplerName;
  if (!SAMPLERS.includes(sampler))
    throw new ConfigError(
      `OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')}, got ${JSON.stringify(env.OTEL_TRACES_SAMPLER)}`,
    );
  const resourceAttributes = parseResourceAttributes(env.OTEL_RESOURCE_ATTRIBUTES);
  const maxQueueSize = parsePositiveInteger(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048);
  const maxExportBatchSize = parsePositiveInteger(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512);
  if (maxExportBatchSize > maxQueueSize)
    throw new ConfigError(
      `OTEL_BSP_MAX_EXPORT_BATCH_SIZE (${maxExportBatchSize}) must not be larger than OTEL_BSP_MAX_QUEUE_SIZE (${maxQueueSize})`,
    );
  return {
    serviceName: env.OTEL_SERVICE_NAME?.trim() || resourceAttributes['service.name'] || 'keys-destinations-presets-api',
    sampler,
    ratio: parseRatio(env.OTEL_TRACES_SAMPLER_ARG),
    resourceAttributes,
    batch: {
      scheduledDelayMillis: parsePositiveInteger(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000),
      exportTimeoutMillis: parsePositiveInteger(env, 'OTEL_BSP_EXPORT_TIMEOUT', 30_000),
      maxQueueSize,
      maxExportBatchSize,
    },
  };
}
