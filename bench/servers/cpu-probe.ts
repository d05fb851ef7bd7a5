// Imported by every server of the benchmark: the harness asks over IPC for the CPU time the
// process has used, before and after a load, for the CPU time per request; and, for the
// hostile-traffic runs, for its memory after a full garbage collection (node --expose-gc).
process.on('message', (message) => {
  if (message === 'cpu-usage') process.send?.({ cpuUsage: process.cpuUsage() });
  if (message === 'memory') {
    (globalThis as { gc?: () => void }).gc?.();
    const { heapUsed, rss } = process.memoryUsage();
    process.send?.({ memory: { heapUsed, rss } });
  }
});
