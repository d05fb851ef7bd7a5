// Tracing's OTEL_* settings: off unless asked for, the specification's defaults, and every bad value
// a one-line configuration error at start rather than a warning the SDK would log and ignore.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config-error.js';
import { loadTracingSettings, SAMPLERS } from '../../server/telemetry/settings.js';

const on = { OTEL_TRACES_EXPORTER: 'otlp' };

function errorOf(env: NodeJS.ProcessEnv): string {
  try {
    loadTracingSettings(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('the settings were accepted');
}

describe('tracing settings', () => {
  it('are off unless OTEL_TRACES_EXPORTER is otlp, and off again with OTEL_SDK_DISABLED', () => {
    expect(loadTracingSettings({})).toBeUndefined();
    expect(loadTracingSettings({ OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(loadTracingSettings({ OTEL_TRACES_EXPORTER: '' })).toBeUndefined();
    expect(loadTracingSettings({ ...on, OTEL_SDK_DISABLED: 'TRUE' })).toBeUndefined();
    expect(loadTracingSettings({ OTEL_TRACES_EXPORTER: ' OTLP ' })).toBeDefined();
  });

  it('take the specification defaults when on', () => {
    expect(loadTracingSettings(on)).toEqual({
      serviceName: 'keys-destinations-presets-api',
      sampler: 'parentbased_always_on',
      ratio: 1,
      resourceAttributes: {},
      batch: { scheduledDelayMillis: 5000, exportTimeoutMillis: 30_000, maxQueueSize: 2048, maxExportBatchSize: 512 },
    });
  });

  it('take every sampler the specification names for the SDK, and the batch settings', () => {
    for (const sampler of SAMPLERS)
      expect(loadTracingSettings({ ...on, OTEL_TRACES_SAMPLER: sampler })?.sampler).toBe(sampler);
    expect(
      loadTracingSettings({
        ...on,
        OTEL_BSP_SCHEDULE_DELAY: '200',
        OTEL_BSP_EXPORT_TIMEOUT: '1000',
        OTEL_BSP_MAX_QUEUE_SIZE: '64',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '16',
      })?.batch,
    ).toEqual({ scheduledDelayMillis: 200, exportTimeoutMillis: 1000, maxQueueSize: 64, maxExportBatchSize: 16 });
  });

  it('name the service by OTEL_SERVICE_NAME first, then service.name among the resource attributes', () => {
    expect(loadTracingSettings({ ...on, OTEL_RESOURCE_ATTRIBUTES: 'service.name=a' })?.serviceName).toBe('a');
    expect(
      loadTracingSettings({ ...on, OTEL_RESOURCE_ATTRIBUTES: 'service.name=a', OTEL_SERVICE_NAME: 'b' })?.serviceName,
    ).toBe('b');
  });

  it('name the service keys-destinations-presets-api by default', () => {
    expect(loadTracingSettings(on)?.serviceName).toBe('keys-destinations-presets-api');
  });

  it('read each value without the white space around it, and a blank value as none', () => {
    const padded = '\u00a0http://collector:4318\u00a0';
    expect(
      loadTracingSettings({
        ...on,
        OTEL_SERVICE_NAME: '  checkout  ',
        OTEL_EXPORTER_OTLP_PROTOCOL: ' http/json ',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: '   ',
        OTEL_EXPORTER_OTLP_ENDPOINT: padded,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: padded,
        OTEL_TRACES_SAMPLER_ARG: '   ',
        OTEL_RESOURCE_ATTRIBUTES: ' , team = payments , ',
        OTEL_BSP_SCHEDULE_DELAY: ' 200 ',
        OTEL_BSP_EXPORT_TIMEOUT: '  ',
      }),
    ).toEqual({
      serviceName: 'checkout',
      sampler: 'parentbased_always_on',
      ratio: 1,
      resourceAttributes: { team: 'payments' },
      batch: { scheduledDelayMillis: 200, exportTimeoutMillis: 30_000, maxQueueSize: 2048, maxExportBatchSize: 512 },
    });
  });

  it('take an https endpoint as well as an http one', () => {
    expect(
      loadTracingSettings({
        ...on,
        OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector:4318/v1/traces',
      }),
    ).toBeDefined();
  });

  it('refuse each bad value in one line that names the variable', () => {
    expect(errorOf({ OTEL_TRACES_EXPORTER: 'jaeger' })).toBe('OTEL_TRACES_EXPORTER must be otlp or none, got "jaeger"');
    expect(errorOf({ ...on, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toMatch(
      /^OTEL_EXPORTER_OTLP_PROTOCOL must be http\/json/,
    );
    expect(errorOf({ ...on, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).toMatch(
      /^OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be http\/json/,
    );
    expect(errorOf({ ...on, OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toBe(
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, got "collector:4318"',
    );
    expect(errorOf({ ...on, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'not a url' })).toMatch(
      /^OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http\(s\) URL/,
    );
    expect(errorOf({ ...on, OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toMatch(
      /^OTEL_TRACES_SAMPLER must be one of always_on, /,
    );
    for (const ratio of ['1.5', '-0.1', 'half', 'NaN', 'Infinity'])
      expect(errorOf({ ...on, OTEL_TRACES_SAMPLER_ARG: ratio })).toBe(
        `OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got ${JSON.stringify(ratio)}`,
      );
    expect(errorOf({ ...on, OTEL_RESOURCE_ATTRIBUTES: 'team' })).toMatch(
      /^OTEL_RESOURCE_ATTRIBUTES: "team" is not one key=value/,
    );
    expect(errorOf({ ...on, OTEL_RESOURCE_ATTRIBUTES: 'a=b=c' })).toMatch(/is not one key=value/);
    expect(errorOf({ ...on, OTEL_RESOURCE_ATTRIBUTES: '=x' })).toMatch(/has an empty key/);
    expect(errorOf({ ...on, OTEL_RESOURCE_ATTRIBUTES: 'a=%E0%A4%A' })).toMatch(/is not percent-encoded/);
    expect(errorOf({ ...on, OTEL_BSP_MAX_QUEUE_SIZE: '0' })).toBe(
      'OTEL_BSP_MAX_QUEUE_SIZE must be a positive integer, got "0"',
    );
    expect(errorOf({ ...on, OTEL_BSP_SCHEDULE_DELAY: '1e3' })).toMatch(
      /^OTEL_BSP_SCHEDULE_DELAY must be a positive integer/,
    );
    expect(errorOf({ ...on, OTEL_BSP_MAX_QUEUE_SIZE: '10', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '11' })).toMatch(
      /must not be larger than OTEL_BSP_MAX_QUEUE_SIZE/,
    );
  });

  it('check nothing while tracing is off', () => {
    expect(loadTracingSettings({ OTEL_TRACES_SAMPLER: 'bogus', OTEL_RESOURCE_ATTRIBUTES: 'x' })).toBeUndefined();
  });
});
