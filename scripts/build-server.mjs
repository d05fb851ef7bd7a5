// Compiles the server, the benchmark's servers and client, and the scripts `npm start` runs to dist/ with
// esbuild: one file per source, in the sources' layout. Nothing is done when every output is newer
// than every source (and than this script and esbuild). It checks no types: `npm run typecheck`
// (tsc --noEmit) does, and `npm test` runs it.
// Plain JavaScript run by node: the script that compiles the TypeScript cannot need compiling.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const OUT_DIR = 'dist';
const sources = [
  ...['server', 'generated', 'bench', 'scripts'].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => join(dir, file)),
  ),
  // The client's own modules (not its build or dependencies), for the benchmark of its overhead.
  ...readdirSync(join(root, 'client'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join('client', file)),
];

function upToDate() {
  const outputs = sources.map((source) => join(OUT_DIR, source.replace(/\.ts$/, '.js')));
  if (!outputs.every((output) => existsSync(join(root, output)))) return false;
  const esbuild = createRequire(import.meta.url).resolve('esbuild/package.json');
  const inputs = [...sources.map((source) => join(root, source)), fileURLToPath(import.meta.url), esbuild];
  const newestInput = Math.max(...inputs.map((file) => statSync(file).mtimeMs));
  return Math.min(...outputs.map((output) => statSync(join(root, output)).mtimeMs)) > newestInput;
}

/** Compiles what changed since the last build (everything with force); resolves false when esbuild reports an error. */
export async function buildServer({ force = false } = {}) {
  if (!force && upToDate()) return true;
  const esbuild = await import('esbuild');
  try {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: sources,
      outbase: '.',
      outdir: OUT_DIR,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      sourcemap: true,
      logLevel: 'warning',
    });
    return true;
  } catch {
    // esbuild has printed each error with its file and line; its stack would add nothing.
    return false;
  } finally {
    // Its service process would otherwise live as long as the server that `npm start` runs next.
    esbuild.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!(await buildServer({ force: process.argv.includes('--force') }))) process.exit(1);
}
