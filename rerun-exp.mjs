import { createVitest } from 'vitest/node';

const pattern = process.argv[2];
const files = process.argv.slice(3);
const ctx = await createVitest('test', {
  config: 'vitest.mutation.config.ts',
  pool: 'threads',
  maxWorkers: 1,
  watch: false,
  coverage: { enabled: false },
  onConsoleLog: () => false,
});
for (let i = 0; i < 4; i++) {
  ctx.state.filesMap.clear();
  ctx.projects.forEach((p) => {
    p.config.testNamePattern = pattern === '-' ? undefined : new RegExp(pattern);
  });
  const t = performance.now();
  await ctx.start(files);
  console.log(
    'run',
    i,
    Math.round(performance.now() - t),
    'ms',
    ctx.state
      .getFiles()
      .map(
        (f) =>
          `${f.name} prep ${Math.round(f.prepareDuration ?? 0)} env ${Math.round(f.environmentLoad ?? 0)} setup ${Math.round(f.setupDuration ?? 0)} collect ${Math.round(f.collectDuration ?? 0)} run ${Math.round(f.result?.duration ?? 0)}`,
      )
      .join(' | '),
  );
}
await ctx.close();
