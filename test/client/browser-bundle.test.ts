// The client as a browser application bundles it: no Node built-in anywhere in what it pulls in,
// its own code small, and what an application does not use left out (tree-shaking).
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/process.js';

async function bundle(contents: string, external: string[] = []): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    stdin: { contents, resolveDir: join(projectRoot, 'client'), loader: 'ts' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: true,
    write: false,
    metafile: true,
    external,
    logLevel: 'silent',
  });
  return { code: result.outputFiles[0]?.text ?? '', inputs: Object.keys((result.metafile as Metafile).inputs) };
}

const nodeBuiltins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

describe('the client in a browser bundle', () => {
  it('bundles for the browser with openapi-fetch and no Node built-in', async () => {
    const { code, inputs } = await bundle("export * from './index.ts';");
    expect(inputs.some((input) => input.includes('openapi-fetch'))).toBe(true);
    expect(inputs.filter((input) => nodeBuiltins.has(input) || input.startsWith('node:'))).toEqual([]);
    expect(code).not.toMatch(/\brequire\(|from ?"node:/);
  });

  it('keeps its own code under 10 KB minified', async () => {
    const { code } = await bundle("export * from './index.ts';", ['openapi-fetch']);
    const kilobytes = Buffer.byteLength(code) / 1024;
    console.log(`the client's own code, minified: ${kilobytes.toFixed(1)} KB`);
    expect(kilobytes).toBeLessThanOrEqual(10);
  });

  it('leaves out what an application does not import', async () => {
    const whole = await bundle("export * from './index.ts';", ['openapi-fetch']);
    const errorsOnly = await bundle("export { ApiError } from './index.ts';", ['openapi-fetch']);
    expect(whole.code).toContain('retry-after');
    expect(errorsOnly.code).not.toContain('retry-after');
    expect(errorsOnly.code.length).toBeLessThan(whole.code.length / 2);
  });
});
