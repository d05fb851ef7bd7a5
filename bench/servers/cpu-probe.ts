// Imported by every server of the benchmark: the harness asks over IPC for the CPU time the
// process has used, before and after a load, for the CPU time per request.
process.on('message', (message) => {
  if (message === 'cpu-usage') process.send?.({ cpuUsage: process.cpuUsage() });
});
