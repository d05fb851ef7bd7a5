// An OTLP/HTTP receiver for the tests: it takes POST /v1/traces with JSON bodies, as a collector
// does, and keeps every span flattened with its resource's attributes. It can be taken away and
// brought back on the same port, to play a collector that goes and returns.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
};
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: KeyValue[];
  status?: { code?: number };
  traceState?: string;
  startTimeUnixNano?: string | number;
  endTimeUnixNano?: string | number;
}
interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[];
  }[];
}

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's numbers: 2 server, 3 client, 1 internal. */
  kind: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  /** The W3C tracestate it carries; empty for none. */
  traceState: string;
  /** From its start to its end. */
  durationMs: number;
  /** The name of the instrumentation scope that made it. */
  scope: string;
}

function plainValue(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plainValue);
  return undefined;
}

const attributesOf = (list: KeyValue[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, plainValue(value)]));

export interface OtlpReceiver {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans: ReceivedSpan[];
  /** Every request body received, as sent. */
  bodies: string[];
  /** Stops listening: the port refuses connections until `resume`. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const makeServer = (): Server =>
    createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (req.method !== 'POST' || req.url !== '/v1/traces') {
          res.writeHead(404).end();
          return;
        }
        bodies.push(body);
        const request = JSON.parse(body) as ExportRequest;
        for (const resourceSpans of request.resourceSpans ?? []) {
          const resource = attributesOf(resourceSpans.resource?.attributes);
          for (const scope of resourceSpans.scopeSpans ?? [])
            for (const span of scope.spans ?? [])
              spans.push({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
                name: span.name,
                kind: span.kind,
                attributes: attributesOf(span.attributes),
                resource,
                statusCode: span.status?.code ?? 0,
                traceState: span.traceState ?? '',
                durationMs: Number(BigInt(span.endTimeUnixNano ?? 0) - BigInt(span.startTimeUnixNano ?? 0)) / 1e6,
                scope: scope.scope?.name ?? '',
              });
        }
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
  let server = makeServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    server.closeAllConnections();
    server.close();
    if (server.listening) await once(server, 'close');
  };
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    pause: close,
    async resume() {
      server = makeServer();
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
    },
    close,
  };
}
