// Tracing as main.ts starts it (server/telemetry/server-tracing.ts and tracing.ts), in the test's own
// process: the samplers OTEL_TRACES_SAMPLER names, what becomes of the spans (exported, lost with
// the collector away, dropped at a full queue, sent at shutdown within its time), and what it logs.
import { once } from 'node:events';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SAMPLERS, type SamplerName } from '../../server/telemetry/settings.js';
import {
  callerTrace,
  hex,
  logLineOf,
  NOT_SAMPLED,
  pathOf,
  SAMPLED,
  send,
  serverSpanOf,
  spansOf,
  tracedServer,
  useTracedServers,
} from '../support/traced-test-server.js';

useTracedServers();

describe('the samplers OTEL_TRACES_SAMPLER names', () => {
  type Decisions = [root: boolean, callerSampled: boolean, callerNotSampled: boolean];
  /** Whether a request is sampled, by ratio: with no traceparent, a caller that sampled, a caller that did not. */
  const expected: Record<SamplerName, { 0: Decisions; 1: Decisions }> = {
    always_on: { 0: [true, true, true], 1: [true, true, true] },
    always_off: { 0: [false, false, false], 1: [false, false, false] },
    traceidratio: { 0: [false, false, false], 1: [true, true, true] },
    parentbased_always_on: { 0: [true, true, false], 1: [true, true, false] },
    parentbased_always_off: { 0: [false, true, false], 1: [false, true, false] },
    parentbased_traceidratio: { 0: [false, true, false], 1: [true, true, false] },
  };

  it.each(SAMPLERS.flatMap((name) => ([0, 1] as const).map((ratio) => [name, ratio] as const)))(
    '%s at ratio %d decides as the specification says',
    async (name, ratio) => {
      // The ratio is given to every sampler: only the ratio samplers read it.
      const traced = await tracedServer({ OTEL_TRACES_SAMPLER: name, OTEL_TRACES_SAMPLER_ARG: String(ratio) });
      const path = pathOf('getKey', { hash: traced.workspace.standardKeyHash });
      const sampled: boolean[] = [];
      for (const traceparent of [undefined, callerTrace(SAMPLED).traceparent, callerTrace(NOT_SAMPLED).traceparent]) {
        const requestId = `sampler-${hex(4)}`;
        await send(traced, 'GET', path, {
          key: traced.workspace.managementKey,
          requestId,
          ...(traceparent !== undefined && { traceparent }),
        });
        // A sampled request's log line names its span.
        sampled.push(logLineOf(traced.server, requestId).span_id !== undefined);
      }
      expect(sampled).toEqual(expected[name][ratio]);
    },
  );
});

describe('what becomes of the spans', () => {
  it('counts them exported, lost when the collector is away, and says once when it goes and returns', async () => {
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'always_on', OTEL_EXPORTER_OTLP_TIMEOUT: '1000' });
    const path = pathOf('getKey', { hash: traced.workspace.standardKeyHash });
    const request = async () => {
      const caller = callerTrace();
      await send(traced, 'GET', path, { key: traced.workspace.managementKey, traceparent: caller.traceparent });
      return caller.traceId;
    };
    const until = async (what: string, done: () => boolean) => {
      const deadline = Date.now() + 5000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`not within 5 s: ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const first = await spansOf(traced.receiver, await request());
    await until('the first spans counted', () => traced.outcomes.exported >= first.length);
    expect(traced.outcomes).toMatchObject({ queue_full: 0, export_failed: 0 });

    await traced.receiver.pause();
    await request();
    await until('a failed export counted', () => traced.outcomes.export_failed > 0);
    await until('the warning', () => traced.tracingLogs.some((line) => line.level === 40));
    await request();
    await until('a second failed export counted', () => traced.outcomes.export_failed > first.length);
    await traced.receiver.resume();
    await spansOf(traced.receiver, await request());
    await until('the line that says exports succeed again', () =>
      traced.tracingLogs.some((line) => line.level === 30 && line.msg.includes('again')),
    );
    expect(traced.tracingLogs.find((line) => line.level === 40)?.err).toMatch(/\S/);
    const messages = traced.tracingLogs.map((line) => [line.level, line.msg]);
    expect(messages).toEqual([
      [30, 'traces: exported over OTLP/HTTP'],
      [40, 'traces: the collector does not take spans; they are dropped until it does'],
      [30, 'traces: the collector takes spans again'],
    ]);
  });

  it('sends what is queued at shutdown, and waits no longer than it is given for a collector away', async () => {
    // A schedule far away: only the shutdown sends.
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'always_on', OTEL_BSP_SCHEDULE_DELAY: '600000' });
    const path = pathOf('getKey', { hash: traced.workspace.standardKeyHash });
    const caller = callerTrace();
    await send(traced, 'GET', path, { key: traced.workspace.managementKey, traceparent: caller.traceparent });
    expect(traced.receiver.spans).toEqual([]);
    await traced.tracing.shutdown(2000);
    expect(serverSpanOf(traced.receiver.spans.filter((span) => span.traceId === caller.traceId)).name).toMatch(/^GET /);
  });

  it('gives up a shutdown at its time when the collector does not answer', async () => {
    // A collector that takes the connection and never answers.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const traced = await tracedServer({
        OTEL_TRACES_SAMPLER: 'always_on',
        OTEL_BSP_SCHEDULE_DELAY: '600000',
        OTEL_EXPORTER_OTLP_TIMEOUT: '60000',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      });
      await send(traced, 'GET', pathOf('getKey', { hash: traced.workspace.standardKeyHash }), {
        key: traced.workspace.managementKey,
        traceparent: callerTrace().traceparent,
      });
      const started = performance.now();
      await traced.tracing.shutdown(300);
      expect(performance.now() - started).toBeLessThan(3000);
      expect(sockets.length).toBeGreaterThan(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('counts the spans a full queue drops', async () => {
    const traced = await tracedServer({
      OTEL_TRACES_SAMPLER: 'always_on',
      OTEL_BSP_MAX_QUEUE_SIZE: '1',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '1',
    });
    const caller = callerTrace();
    await send(traced, 'GET', pathOf('getKey', { hash: traced.workspace.standardKeyHash }), {
      key: traced.workspace.managementKey,
      traceparent: caller.traceparent,
    });
    await traced.tracing.shutdown(2000);
    // The server span ends first and takes the queue's one place; its children find it full.
    expect(traced.outcomes.queue_full).toBeGreaterThan(0);
    expect(traced.outcomes.exported + traced.outcomes.queue_full).toBe(
      traced.receiver.spans.length + traced.outcomes.queue_full,
    );
  });
});

describe('tracing as the server starts it', () => {
  it('says once where spans go and under which sampler', async () => {
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' });
    expect(traced.tracingLogs).toEqual([
      expect.objectContaining({ msg: 'traces: exported over OTLP/HTTP', sampler: 'traceidratio', ratio: 0.25 }),
    ]);
  });
});
