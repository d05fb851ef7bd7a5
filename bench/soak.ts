// The soak: mixed load on the server under test for a few rounds, its resident set after each, and
// what that resident set holds (asked of the server over IPC, bench/servers/cpu-probe.ts).
import autocannon from 'autocannon';
import { askProbe, type Started } from './shared/processes.js';
import { requestsOf, type Scenario } from './shared/scenarios.js';

/**
 * Mixed load, every scenario's requests in turn on each connection, for `rounds` rounds of
 * `durationSec`; the server's resident set after each round, in MB.
 */
export async function soak(
  server: Started,
  scenarios: Scenario[],
  apiKey: string,
  { rounds, durationSec, connections }: { rounds: number; durationSec: number; connections: number },
  residentMb: () => number,
): Promise<{ rssMbByRound: number[]; errors: number }> {
  // A scenario over many rows takes its first five: the soak mixes operations, not rows.
  const requests = scenarios.flatMap((scenario) =>
    requestsOf({ ...scenario, ...(scenario.paths && { paths: scenario.paths.slice(0, 5) }) }, apiKey),
  );
  const rssMbByRound: number[] = [];
  let errors = 0;
  for (let round = 0; round < rounds; round++) {
    const result = await autocannon({
      url: `http://127.0.0.1:${server.port}`,
      connections,
      duration: durationSec,
      requests,
    });
    errors += result.non2xx + result.errors;
    rssMbByRound.push(residentMb());
  }
  return { rssMbByRound, errors };
}

interface MemoryHeld {
  rss: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  spaces: Record<string, { size: number; used: number }>;
}

/** What a server's resident set holds, in MB: V8's heap by space (size reserved, used), and the rest. */
export async function memoryHeld(server: Started): Promise<string> {
  const held = await askProbe<MemoryHeld>(server, 'memory-held', 'memoryHeld');
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  const spaces = Object.entries(held.spaces)
    .filter(([, space]) => space.size >= 2 ** 20)
    .map(([name, space]) => `${name} ${mb(space.size)} (${mb(space.used)} used)`)
    .join(', ');
  const outside = held.rss - held.heapTotal - held.external;
  return `RSS ${mb(held.rss)}: V8 heap ${mb(held.heapTotal)} [${spaces}]; external ${mb(held.external)} (array buffers ${mb(held.arrayBuffers)}); code, stacks and native allocations ${mb(outside)}`;
}
