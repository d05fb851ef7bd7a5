import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { componentSchema, describeErrors } from '../support/spec.js';
import { projectRoot, spawnEntry, waitForOutput } from '../support/process.js';

const exec = promisify(execFile);

// `npm start` runs the compiled server; the build here makes sure it is compiled from these sources.
beforeAll(async () => {
  await exec(process.execPath, [join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.server.json'], { cwd: projectRoot });
});

function start(dataDir: string) {
  return spawnEntry('dist/server/main.js', [], { DATABASE_URL: `sqlite:${join(dataDir, 'api.db')}`, PORT: '0', HOST: '127.0.0.1', SECRETS_KEY: '' });
}

function stop(child: ReturnType<typeof start>): Promise<number | null> {
  return new Promise((resolve) => {
    child.on('close', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('npm start', () => {
  it('seeds an empty database, prints three curl lines that work as printed, and drains on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'main-test-'));
    const child = start(dataDir);
    const output = await waitForOutput(child, /curl [^\n]+presets\/[^\n]+versions[^\n]*\n/);
    expect(output).toMatch(/management key: sk-or-v1-[0-9a-f]{64}/);
    const curlLines = output.split('\n').map((line) => line.trim()).filter((line) => line.startsWith('curl '));
    expect(curlLines).toHaveLength(3);
    const schemas = ['ApiKeyResponse', 'ObservabilityDestinationResponse', 'PresetVersionList'];
    for (const [index, line] of curlLines.entries()) {
      // Exactly as a person would paste it into a shell, with the status written after the body.
      const { stdout } = await exec('sh', ['-c', `${line} -w '\\n%{http_code}'`]);
      const [body = '', status] = [stdout.slice(0, stdout.lastIndexOf('\n')), stdout.slice(stdout.lastIndexOf('\n') + 1)];
      expect(status, line).toBe('200');
      const validate = componentSchema(schemas[index] ?? '');
      expect(validate(JSON.parse(body)), describeErrors(validate.errors)).toBe(true);
    }
    expect(await stop(child)).toBe(0);

    // A second start on the same database seeds nothing more.
    const again = start(dataDir);
    const secondOutput = await waitForOutput(again, /already has data/);
    expect(secondOutput).not.toContain('management key:');
    expect(await stop(again)).toBe(0);
  });

  it('refuses to start in production without SECRETS_KEY, saying why', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'main-test-'));
    const child = spawnEntry('dist/server/main.js', [], { DATABASE_URL: `sqlite:${join(dataDir, 'api.db')}`, PORT: '0', NODE_ENV: 'production', SECRETS_KEY: '' });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('SECRETS_KEY is required when NODE_ENV=production');
  });
});
