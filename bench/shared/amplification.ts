// The amplification run: every body of amplification-vectors.ts sent to the server in production
// mode (a process of its own, seeded SQLite), with a key and without, its CPU time per request beside
// that of the plain body of the same size; and the latency of plain requests sent meanwhile by
// another client. `npm run bench -- --amplification` runs it on the build; the test
// (test/hardening/amplification.test.ts) on the sources.
import { Agent, request } from 'node:http';
import type { operations } from '../../generated/api.js';
import { BODY_LIMIT_BYTES } from '../../server/request-pipeline.js';
import { apiBasePaths, loadSpec, type OpenApiDocument, specOperation } from '../../server/spec.js';
import { amplificationBodies } from './amplification-vectors.js';
import { describeStatuses, type Load, measure, sendAll } from './hostile-driver.js';
import type { HostileRequest, HostileTarget } from './hostile-vectors.js';
import type { Started } from './processes.js';
import { median } from './stats.js';

export interface AmplificationRow {
  operationId: string;
  shape: string;
  withKey: boolean;
  bytes: number;
  cpuUs: number;
  /** The plain body of the same size's CPU time per request. */
  plainCpuUs: number;
  statuses: string;
  serverErrors: number;
}

const pathValues = (t: HostileTarget): Record<string, string> => ({
  hash: t.keyHash,
  id: t.destinationId,
  slug: t.presetSlug,
});

/** The path of an operation's template on the seeded target, under the spec's server URL. */
function pathOf(spec: OpenApiDocument, template: string, target: HostileTarget): string {
  const values = pathValues(target);
  const [basePath = ''] = apiBasePaths(spec);
  return `${basePath}${template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? ''))}`;
}

function requestOf(path: string, method: string, body: string, key: string | undefined): HostileRequest {
  return {
    method,
    path,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      ...(key && { authorization: `Bearer ${key}` }),
    },
    body,
  };
}

/** Each body's CPU per request (the best of `rounds` loads), beside the plain body's (their median). */
export async function measureAmplification(server: Started, target: HostileTarget, load: Load, rounds = 2) {
  const spec = loadSpec();
  const rows: AmplificationRow[] = [];
  for (const { entry, plain, bodies } of amplificationBodies(spec, BODY_LIMIT_BYTES)) {
    const path = pathOf(spec, entry.template, target);
    const method = entry.method.toUpperCase();
    for (const withKey of [true, false]) {
      const key = withKey ? target.managementKey : undefined;
      const plainRequest = requestOf(path, method, plain, key);
      await measure(server, () => plainRequest, { count: 2, concurrency: 1 });
      const plainCpu = [(await measure(server, () => plainRequest, load)).cpuUs];
      for (const { shape, body } of bodies) {
        const vector = requestOf(path, method, body, key);
        const runs = [];
        for (let round = 0; round < rounds; round++) runs.push(await measure(server, () => vector, load));
        plainCpu.push((await measure(server, () => plainRequest, load)).cpuUs);
        const best = runs.reduce((a, b) => (b.cpuUs < a.cpuUs ? b : a));
        rows.push({
          operationId: entry.operation.operationId,
          shape,
          withKey,
          bytes: Buffer.byteLength(body),
          cpuUs: best.cpuUs,
          plainCpuUs: 0,
          statuses: describeStatuses(best.statuses),
          serverErrors: [...best.statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0),
        });
      }
      const plainCpuUs = median(plainCpu);
      for (const row of rows) if (row.withKey === withKey && row.plainCpuUs === 0) row.plainCpuUs = plainCpuUs;
    }
  }
  return rows;
}

/** The plain request whose latency is measured while hostile bodies are sent. */
const PLAIN_OPERATION: keyof operations = 'getKey';

/**
 * The costliest body measured with a key, as a request, and a plain getKey of the same target: what
 * latencyMeanwhile sends.
 */
export function costliestBeside(rows: readonly AmplificationRow[], target: HostileTarget) {
  const costliest = rows.filter((r) => r.withKey).reduce((a, b) => (b.cpuUs > a.cpuUs ? b : a));
  const spec = loadSpec();
  const operation = amplificationBodies(spec, BODY_LIMIT_BYTES).find(
    (o) => o.entry.operation.operationId === costliest.operationId,
  );
  const body = operation?.bodies.find((b) => b.shape === costliest.shape)?.body ?? '';
  const getKey = specOperation(spec, PLAIN_OPERATION);
  return {
    shape: costliest.shape,
    hostile: requestOf(
      pathOf(spec, operation?.entry.template ?? '', target),
      operation?.entry.method.toUpperCase() ?? '',
      body,
      target.managementKey,
    ),
    plain: {
      method: 'GET',
      path: pathOf(spec, getKey.template, target),
      headers: { authorization: `Bearer ${target.managementKey}` },
    },
  };
}

function timedGet(agent: Agent, port: number, req: HostileRequest): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, agent, method: req.method, path: req.path, headers: req.headers },
      (response) => {
        response.resume();
        response.on('end', () => resolve(performance.now() - started));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/**
 * The wall time of plain requests (`plain`, one at a time) while `hostile` is sent `count` times,
 * `concurrency` at a time, by another client: the slowest and the median, in milliseconds.
 */
export async function latencyMeanwhile(
  server: Started,
  plain: HostileRequest,
  hostile: HostileRequest,
  load: Load,
): Promise<{ maxMs: number; medianMs: number; plainRequests: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let done = false;
  const flood = sendAll(server.port, () => hostile, load).finally(() => {
    done = true;
  });
  try {
    while (!done) latencies.push(await timedGet(agent, server.port, plain));
    await flood;
  } finally {
    agent.destroy();
  }
  return { maxMs: Math.max(...latencies), medianMs: median(latencies), plainRequests: latencies.length };
}

/** The rows as a Markdown table. */
export function amplificationTable(rows: AmplificationRow[]): string {
  return [
    '| operation | key | body (at the byte limit) | bytes | answers | CPU ms/request | × plain body of that size |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.operationId} | ${r.withKey ? 'yes' : 'no'} | ${r.shape} | ${r.bytes.toLocaleString('en')} | ${r.statuses} | ${(r.cpuUs / 1000).toFixed(1)} | ${(r.cpuUs / r.plainCpuUs).toFixed(1)} |`,
    ),
  ].join('\n');
}
