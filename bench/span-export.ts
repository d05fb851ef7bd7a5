// npm run bench:span-export [-- --requests <n> --rounds <n>]: the CPU a sampled request pays for
// its spans once it has ended, through the path the server ships (server/telemetry/tracing.ts): the
// span records, the SDK's BatchSpanProcessor and the official OTLP/HTTP exporter, which serializes
// them to JSON and posts them to a collector. The collector is another process, so that only the
// sending side is counted. Each round sends the spans of n requests shaped as the server's (a
// getKey: the server span and one statement; a PATCH: the server span and two), in batches the
// processor sends as soon as they are full, and reports this process's CPU per request, beside a
// round that builds the same attributes and exports nothing. Medians of interleaved rounds.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { SpanKind, TraceFlags } from '@opentelemetry/api';
import { parseArgsOrMessage } from '../scripts/shared/cli-args.js';
import { runMain } from '../server/run-main.js';
import { loadTracingSettings } from '../server/telemetry/settings.js';
import { type EndedSpan, startTracing, type Tracing } from '../server/telemetry/tracing.js';
import { median } from './shared/stats.js';

/** The processor's batch (OTEL_BSP_MAX_EXPORT_BATCH_SIZE's default): a full one is sent at once. */
const BATCH = 512;

const USAGE = 'usage: npm run bench:span-export -- [--requests <n>] [--rounds <n>]';

/** A collector in a process of its own: it reads each export whole and answers 200. */
const COLLECTOR = `
const { createServer } = require('node:http');
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

async function startCollector() {
  const child = spawn(process.execPath, ['-e', COLLECTOR], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [first] = (await once(child.stdout, 'data')) as [Buffer];
  return { url: `http://127.0.0.1:${first.toString().trim()}`, stop: () => child.kill() };
}

/** The spans handed to the processor, and what it reports of them: how many were sent, how many lost. */
const outcomes = { handed: 0, exported: 0, lost: 0 };

/** Waits (idle, at most 10 s) until every full batch of the spans handed over has been sent. */
async function drained(): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (outcomes.exported < Math.floor(outcomes.handed / BATCH) * BATCH) {
    if (outcomes.lost > 0) throw new Error(`${outcomes.lost} spans were lost (a full queue or a failed export)`);
    if (Date.now() > deadline) throw new Error('the collector took no batch for 10 s');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

interface Shape {
  name: string;
  route: string;
  operationId: string;
  statements: string[];
}

const SHAPES: Shape[] = [
  { name: 'getKey', route: '/api/v1/keys/{hash}', operationId: 'getKey', statements: ['keys.byHash'] },
  {
    name: 'PATCH',
    route: '/api/v1/observability/destinations/{id}',
    operationId: 'updateObservabilityDestination',
    statements: ['keys.byHash', 'destinations.byId then write'],
  },
];

const hex = (length: number) => {
  let text = '';
  for (let i = 0; i < length; i++) text += ((Math.random() * 16) | 0).toString(16);
  return text;
};

/** The spans of one request of `shape`, as request-span.ts makes them when the request ends. */
function spansOf(shape: Shape): EndedSpan[] {
  const now = performance.now();
  const server = { traceId: hex(32), spanId: hex(16), traceFlags: TraceFlags.SAMPLED };
  const attributes: Record<string, string | number> = {};
  attributes['http.request.method'] = shape.name === 'PATCH' ? 'PATCH' : 'GET';
  attributes['http.response.status_code'] = 200;
  attributes['http.route'] = shape.route;
  attributes['api.operation_id'] = shape.operationId;
  attributes['api.workspace_id'] = 'ws_5f3c2a9e1b7d4c60';
  attributes['api.validator.duration_ms'] = 0.042;
  const spans: EndedSpan[] = [
    {
      name: `GET ${shape.route}`,
      kind: SpanKind.SERVER,
      context: server,
      parent: undefined,
      startedAt: now - 0.2,
      endedAt: now,
      attributes,
      failed: false,
    },
  ];
  for (const statement of shape.statements)
    spans.push({
      name: statement,
      kind: SpanKind.CLIENT,
      context: { traceId: server.traceId, spanId: hex(16), traceFlags: TraceFlags.SAMPLED },
      parent: server,
      startedAt: now - 0.15,
      endedAt: now - 0.05,
      attributes: { 'db.system.name': 'sqlite', 'db.query.summary': statement },
      failed: false,
    });
  return spans;
}

/**
 * CPU µs per request of `requests` requests of `shape`, exported or only built. Spans are handed
 * over a batch at a time and each full batch is waited for, as requests spaced in time would be:
 * the queue never overflows, and the waits are idle.
 */
async function round(tracing: Tracing, shape: Shape, requests: number, exported: boolean): Promise<number> {
  const spansPerRequest = 1 + shape.statements.length;
  const requestsPerBatch = Math.ceil(BATCH / spansPerRequest);
  const started = process.cpuUsage();
  for (let request = 0; request < requests; request++) {
    const spans = spansOf(shape);
    if (!exported) continue;
    for (const span of spans) tracing.export(span);
    outcomes.handed += spans.length;
    if (request % requestsPerBatch === requestsPerBatch - 1) await drained();
  }
  if (exported) await drained();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / requests;
}

async function main(argv: string[]): Promise<number> {
  const options = parseArgsOrMessage({
    args: argv,
    options: { requests: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '9' } },
  });
  if (typeof options === 'string') {
    console.error(`bench:span-export: ${options} (${USAGE})`);
    return 2;
  }
  const requests = Number(options.values.requests);
  const rounds = Number(options.values.rounds);
  if (!(Number.isInteger(requests) && requests > 0 && Number.isInteger(rounds) && rounds > 0)) {
    console.error(`bench:span-export: --requests and --rounds take whole numbers above 0 (${USAGE})`);
    return 2;
  }
  const collector = await startCollector();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = collector.url;
  const settings = loadTracingSettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'always_on' });
  if (!settings) throw new Error('tracing is off under these settings');
  const tracing = startTracing(settings, '0.0.0', {
    onSpans: (outcome, count) => {
      if (outcome === 'exported') outcomes.exported += count;
      else outcomes.lost += count;
    },
  });
  try {
    console.log(
      `Node.js ${process.version}; ${rounds} rounds of ${requests} requests, interleaved; CPU µs per request`,
    );
    for (const shape of SHAPES) {
      const built: number[] = [];
      const sent: number[] = [];
      await round(tracing, shape, requests, true);
      for (let i = 0; i < rounds; i++) {
        built.push(await round(tracing, shape, requests, false));
        sent.push(await round(tracing, shape, requests, true));
      }
      const paid = sent.map((value, i) => value - (built[i] ?? 0));
      console.log(
        `${shape.name} (${1 + shape.statements.length} spans): built only ${median(built).toFixed(1)}, exported ${median(sent).toFixed(1)}, the export's own ${median(paid).toFixed(1)} (rounds ${paid.map((value) => value.toFixed(1)).join(', ')})`,
      );
    }
  } finally {
    await tracing.shutdown(5000);
    collector.stop();
  }
  return 0;
}

await runMain(main, import.meta.url);
