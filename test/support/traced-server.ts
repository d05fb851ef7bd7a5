// The server as a process with tracing on, exporting over OTLP/HTTP to a receiver a test runs, with
// the lines it prints kept (each request's log line names its trace).
import { type ServerProcess, startServerProcess } from './process.js';

export interface TracedServer {
  server: ServerProcess;
  /** Its stdout, line by line, as printed so far. */
  lines: string[];
}

export async function startTracedServer(endpoint: string, env: Record<string, string>): Promise<TracedServer> {
  const server = await startServerProcess({
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_BSP_SCHEDULE_DELAY: '50',
    OTEL_EXPORTER_OTLP_TIMEOUT: '2000',
    METRICS_PORT: '0',
    ...env,
  });
  const lines: string[] = [];
  let rest = '';
  server.child.stdout.on('data', (chunk: Buffer) => {
    const text = rest + chunk.toString('utf8');
    const complete = text.split('\n');
    rest = complete.pop() ?? '';
    lines.push(...complete);
  });
  return { server, lines };
}
