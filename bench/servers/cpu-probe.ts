// Imported by every server of the benchmark: the harness asks over IPC for the CPU time the
// process has used, before and after a load, for the CPU time per request; and, for the
// hostile-traffic runs, for its memory after a full garbage collection (node --expose-gc); and,
// for the soak, for what its resident set holds: V8's heap by space, and memory outside it.
import { getHeapSpaceStatistics } from 'node:v8';

process.on('message', (message) => {
  if (message === 'cpu-usage') process.send?.({ cpuUsage: process.cpuUsage() });
  if (message === 'memory') {
    (globalThis as { gc?: () => void }).gc?.();
    const { heapUsed, rss } = process.memoryUsage();
    process.send?.({ memory: { heapUsed, rss } });
  }
  if (message === 'memory-held') {
    const { rss, heapTotal, external, arrayBuffers } = process.memoryUsage();
    const spaces = Object.fromEntries(
      getHeapSpaceStatistics().map((space) => [
        space.space_name,
        { size: space.space_size, used: space.space_used_size },
      ]),
    );
    process.send?.({ memoryHeld: { rss, heapTotal, external, arrayBuffers, spaces } });
  }
});
