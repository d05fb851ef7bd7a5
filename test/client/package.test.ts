// What a consuming project gets: `npm run build` emits JavaScript and declarations, and a small
// consumer compiles against them through the package's exports; a consumer's mistakes do not.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/process.js';

const exec = promisify(execFile);
const tsc = join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');

async function compile(project: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await exec(process.execPath, [tsc, '-p', join(projectRoot, 'test/client/consumer', project)], {
      cwd: projectRoot,
    });
    return { code: 0, output: stdout };
  } catch (err) {
    const failure = err as { code: number; stdout: string };
    return { code: failure.code, output: failure.stdout };
  }
}

describe('package exports', () => {
  beforeAll(async () => {
    await exec(process.execPath, [tsc, '-p', join(projectRoot, 'tsconfig.build.json')], { cwd: projectRoot });
  }, 60_000);

  it('builds the client and the types to JavaScript and declarations', () => {
    for (const file of ['dist/client/index.js', 'dist/client/index.d.ts', 'dist/generated/api.d.ts']) {
      expect(existsSync(join(projectRoot, file)), file).toBe(true);
    }
  });

  it('compiles a consumer importing ./client and ./types', async () => {
    const result = await compile('tsconfig.consumer.json');
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);

  it('refuses a consumer that uses a wrong field name or parameter type', async () => {
    const result = await compile('tsconfig.consumer-with-errors.json');
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("'samplingRate' does not exist");
    expect(result.output).toContain("Type 'string' is not assignable to type 'number'");
    expect(result.output).toContain("Property 'usage_total' does not exist");
  }, 60_000);

  it('runs the built client from plain JavaScript', async () => {
    const { stdout } = await exec(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('keys-destinations-presets-api/client'); console.log(typeof m.createApiClient, typeof m.ApiError)",
      ],
      { cwd: projectRoot },
    );
    expect(stdout.trim()).toBe('function function');
  });
});
