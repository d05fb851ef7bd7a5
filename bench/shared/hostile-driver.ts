// Sends a vector's requests to a server of the benchmark on loopback, a fixed number, a few at a
// time, and reads around them, inside the server's process, its CPU time and its memory after a
// full garbage collection. Both the hostile-traffic benchmark and its test in `npm test` use it.
import { Agent, request } from 'node:http';
import type { HostileRequest } from './hostile-vectors.js';
import { askProbe, cpuMicros, type Started } from './processes.js';

interface Memory {
  heapUsed: number;
  rss: number;
}

/** The server's heap and RSS in bytes, after a full collection when it runs with --expose-gc. */
export function memoryAfterGc(started: Started): Promise<Memory> {
  return askProbe<Memory>(started, 'memory', 'memory');
}

function send(agent: Agent, port: number, req: HostileRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, agent, method: req.method, path: req.path, headers: req.headers },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    outgoing.setTimeout(10_000, () => outgoing.destroy(new Error(`no answer in 10 s to ${req.method} ${req.path}`)));
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

export interface Load {
  count: number;
  /** Requests in flight at once. */
  concurrency: number;
}

/** Sends `count` requests, `make(first + n)` for n below count; resolves with how many got each status. */
export async function sendAll(
  port: number,
  make: (i: number) => HostileRequest,
  { count, concurrency }: Load,
  first = 0,
): Promise<Map<number, number>> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const status = await send(agent, port, make(first + next++));
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    agent.destroy();
  }
  return statuses;
}

export interface Measured {
  /** The server's CPU time, user and system, per request, in microseconds. */
  cpuUs: number;
  /** Heap growth after a full collection, over the whole load, in MB. */
  heapMb: number;
  /** RSS growth over the whole load, in MB. */
  rssMb: number;
  statuses: Map<number, number>;
}

/** One load of a vector (or a plain request) on a server, with its CPU and memory figures. */
export async function measure(
  server: Started,
  make: (i: number) => HostileRequest,
  load: Load,
  first = 0,
): Promise<Measured> {
  const before = await memoryAfterGc(server);
  const cpuBefore = await cpuMicros(server);
  const statuses = await sendAll(server.port, make, load, first);
  const cpuUs = ((await cpuMicros(server)) - cpuBefore) / load.count;
  const after = await memoryAfterGc(server);
  const mb = (bytes: number) => bytes / 2 ** 20;
  return { cpuUs, heapMb: mb(after.heapUsed - before.heapUsed), rssMb: mb(after.rss - before.rss), statuses };
}

/** "401×1200" or "200×600, 400×600": the statuses a load got. */
export function describeStatuses(statuses: Map<number, number>): string {
  return [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}×${n}`)
    .join(', ');
}
