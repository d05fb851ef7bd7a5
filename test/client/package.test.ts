// The client as a team installs it: packed (`npm pack --workspace client`), installed with
// --ignore-scripts into an empty project with a fresh node_modules, compiled against with strict
// TypeScript, and run against the real server, README examples included.
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { codeSamples } from '../../scripts/docs/code-samples.js';
import { type DemoSeed, seedDemo } from '../../server/provisioning/demo.js';
import { specOperations } from '../../server/spec.js';
import { projectRoot } from '../support/process.js';
import { provision } from '../support/server.js';
import { spec } from '../support/spec.js';
import { useTestServer } from '../support/use-test-server.js';
import { clientReadmeBlocks, clientSetupSteps, type SetupStep } from './readme-blocks.js';

const exec = promisify(execFile);
const npm = (args: string[], cwd: string) =>
  exec('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, maxBuffer: 16 * 1024 * 1024 });
const tsc = join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');
/** The step of client/README.md that packs the client; the test puts the tarball aside, not in the clone. */
const PACK = ['pack', '--workspace', 'client'];
/** Where client/README.md says the tarball is; the test's is elsewhere. */
const TARBALL_FOLDER = '/path/to/';
const clientPackage = JSON.parse(readFileSync(join(projectRoot, 'client', 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  publishConfig?: { access?: string };
};
const typesNodeVersion = (
  JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
).devDependencies['@types/node'];

let consumer: string;
let tarball: string;
const server = useTestServer();
let demo: DemoSeed;

async function compile(files: string[], outDir?: string): Promise<{ code: number; output: string }> {
  const config = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2023', 'DOM'],
      types: ['node'],
      strict: true,
      skipLibCheck: false,
      ...(outDir ? { outDir, rootDir: '.' } : { noEmit: true }),
    },
    files,
  };
  writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(config, null, 2));
  try {
    const { stdout } = await exec(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: consumer });
    return { code: 0, output: stdout };
  } catch (err) {
    const failure = err as { code: number; stdout: string };
    return { code: failure.code, output: failure.stdout };
  }
}

let examples: Promise<{ code: number; output: string }> | undefined;
/** The consumer and both READMEs' examples, compiled to out/ once, by whichever test needs them first. */
function examplesCompiled(): Promise<{ code: number; output: string }> {
  examples ??= (async () => {
    copyFileSync(join(projectRoot, 'test/client/consumer/consumer.ts'), join(consumer, 'consumer.ts'));
    writeFileSync(join(consumer, 'readme-root.ts'), clientReadmeBlocks('README.md'));
    writeFileSync(join(consumer, 'readme-client.ts'), clientReadmeBlocks('client/README.md'));
    return compile(['consumer.ts', 'readme-root.ts', 'readme-client.ts'], 'out');
  })();
  return examples;
}

/** The packages a dependency brings in with it, by name, from the installed tree. */
function dependencyClosure(name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen;
  seen.add(name);
  const manifest = JSON.parse(readFileSync(join(consumer, 'node_modules', name, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  for (const dependency of Object.keys(manifest.dependencies ?? {})) dependencyClosure(dependency, seen);
  return seen;
}

/** The project's steps of client/README.md's setup, in order, in `project`; resolves to what they print. */
async function followProjectSteps(steps: SetupStep[], project: string, env: NodeJS.ProcessEnv): Promise<string> {
  let output = '';
  for (const step of steps) {
    if (step.kind === 'file') {
      mkdirSync(dirname(join(project, step.path)), { recursive: true });
      writeFileSync(join(project, step.path), step.contents);
    } else if (step.kind === 'project') {
      const script = step.commands.replaceAll(TARBALL_FOLDER, `${dirname(tarball)}/`);
      const run = exec('sh', ['-e', '-c', script], { cwd: project, env, maxBuffer: 16 * 1024 * 1024 });
      // tsc says its errors on stdout: the test fails with them.
      const { stdout } = await run.catch((failure: { stdout: string; stderr: string }) => {
        throw new Error(`client/README.md's step failed:\n${script}\n${failure.stdout}${failure.stderr}`);
      });
      output += stdout;
    }
  }
  return output;
}

beforeAll(async () => {
  const packed = mkdtempSync(join(tmpdir(), 'client-pack-'));
  // `prepack` builds the package first.
  const { stdout } = await npm([...PACK, '--pack-destination', packed, '--json'], projectRoot);
  // Lifecycle scripts may print before the JSON report.
  tarball = join(packed, (JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string }[])[0]?.filename ?? '');
  consumer = mkdtempSync(join(tmpdir(), 'client-consumer-'));
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // From the npm cache that `npm ci` filled: the client's own dependencies, and Node's types for the consumer's code.
  await npm(['install', tarball, `@types/node@${typesNodeVersion}`, '--ignore-scripts', '--prefer-offline'], consumer);
  demo = await seedDemo(server.store, provision, server.clock.now());
}, 180_000);

describe(`the client package, ${clientPackage.name}`, () => {
  it('installs none of the server’s dependencies', () => {
    for (const serverOnly of [
      'express',
      'better-sqlite3',
      'pg',
      'kysely',
      'redis',
      'express-openapi-validator',
      'pino',
    ]) {
      expect(existsSync(join(consumer, 'node_modules', serverOnly)), serverOnly).toBe(false);
    }
    const installed = [...dependencyClosure(clientPackage.name)].sort();
    expect(installed).toEqual([clientPackage.name, 'openapi-fetch', 'openapi-typescript-helpers']);
    console.log(`installed with it: ${installed.length} packages (${installed.join(', ')})`);
  });

  it('compiles a strict TypeScript consumer, README examples included', async () => {
    const result = await examplesCompiled();
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);

  it('refuses a consumer that uses a wrong field name or parameter type', async () => {
    copyFileSync(
      join(projectRoot, 'test/client/consumer/consumer-with-errors.ts'),
      join(consumer, 'consumer-with-errors.ts'),
    );
    const result = await compile(['consumer-with-errors.ts']);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("'samplingRate' does not exist");
    expect(result.output).toContain("Type 'string' is not assignable to type 'number'");
    expect(result.output).toContain("Property 'usage_total' does not exist");
  }, 60_000);

  it('sets up a project exactly as client/README.md says, which compiles with strict TypeScript and runs', async () => {
    const steps = clientSetupSteps();
    // The repository's steps are the ones beforeAll took: the tests run in an installed clone.
    const repositoryCommands = steps.flatMap((step) => (step.kind === 'repository' ? step.commands.split('\n') : []));
    expect(repositoryCommands.filter((command) => command !== '' && command !== 'npm ci')).toEqual([
      `npm ${PACK.join(' ')}`,
    ]);
    const project = mkdtempSync(join(tmpdir(), 'client-readme-project-'));
    onTestFinished(() => rmSync(project, { recursive: true, force: true }));
    const env = {
      ...process.env,
      // The consumer's npm as the tests' own: from the npm cache first, quiet.
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
      npm_config_loglevel: 'error',
      API_URL: `${server.baseUrl}/api/v1`,
      API_KEY: demo.management_key,
      KEY_HASH: demo.key_hash,
    };
    const output = await followProjectSteps(steps, project, env);
    expect(steps.some((step) => step.kind === 'project' && step.commands.includes(TARBALL_FOLDER))).toBe(true);
    const { stdout: config } = await exec('npx', ['tsc', '--showConfig'], { cwd: project, env });
    expect((JSON.parse(config) as { compilerOptions: { strict?: boolean } }).compilerOptions.strict).toBe(true);
    expect(output).toMatch(/^Demo backend: [\d.]+ used this month$/m);
  }, 240_000);

  it('prints an uncaught ApiError as one line, status, method, URL and request id, then its stack: no Response', async () => {
    copyFileSync(
      join(projectRoot, 'test/client/consumer/uncaught-api-error.ts'),
      join(consumer, 'uncaught-api-error.ts'),
    );
    expect((await compile(['uncaught-api-error.ts'], 'out')).output).toBe('');
    // A base URL without its /api/v1.
    const env = { ...process.env, API_URL: server.baseUrl, API_KEY: demo.management_key, KEY_HASH: demo.key_hash };
    const run = await exec(process.execPath, ['out/uncaught-api-error.js'], { cwd: consumer, env }).then(
      () => ({ code: 0, stderr: '' }),
      (failure: { code: number; stderr: string }) => failure,
    );
    expect(run.code).toBe(1);
    const requestId = server.logs
      .map((entry) => entry.req as { id: string; path: string } | undefined)
      .find((req) => req?.path === `/keys/${demo.key_hash}`)?.id;
    expect(requestId).toBeDefined();
    // Node prints the line that threw, then the error: its one line, its stack, and Node's version.
    const [line, ...rest] = run.stderr
      .slice(run.stderr.indexOf('\nApiError: ') + 1)
      .trimEnd()
      .split('\n');
    const prefix = `ApiError: 404 GET ${server.baseUrl}/keys/${demo.key_hash} (request id ${requestId}): `;
    expect(line?.slice(0, prefix.length)).toBe(prefix);
    expect(line?.length).toBeGreaterThan(prefix.length);
    expect(rest.slice(-2)).toEqual(['', `Node.js ${process.version}`]);
    const stack = rest.slice(0, -2);
    expect(stack.length).toBeGreaterThan(0);
    expect(stack.filter((frame) => !/^ {4}at /.test(frame))).toEqual([]);
  }, 60_000);

  it('runs the README examples as written against the real server: a key, pages of versions, the ETag / If-Match / 412 flow, regions', async () => {
    const env = {
      ...process.env,
      API_URL: `${server.baseUrl}/api/v1`,
      API_KEY: demo.management_key,
      KEY_HASH: demo.key_hash,
      DESTINATION_ID: demo.destination_id,
    };
    expect((await examplesCompiled()).code).toBe(0);
    const root = await exec(process.execPath, ['out/readme-root.js'], { cwd: consumer, env });
    expect(root.stdout).toContain('412, then updated on the current tag: privacy_mode true');
    const client = await exec(process.execPath, ['out/readme-client.js'], { cwd: consumer, env });
    expect(client.stdout).toMatch(/^Demo backend: [\d.]+ this month, [\d.]+ left$/m);
    expect(client.stdout).toContain('2 of 3 versions');
    expect(client.stdout.match(/^version \d+: /gm)).toHaveLength(3);
    expect(client.stdout).toContain('the page is unchanged');
    expect(client.stdout).toContain('412 on the stale tag; updated on the current one: sampling_rate 0.25');
    expect(client.stdout).toContain('regions europe, us, cost forwarded: true');
    expect(client.stdout).toContain('end user of the key: none');
    expect(client.stdout).toContain('/body/sampling_rate must be <= 1');
    expect(client.stdout).toContain('/body/name must NOT have fewer than 1 characters');
    expect(client.stdout).toMatch(/^200 sk-or-v1-/m);
    expect(server.serverErrors()).toEqual([]);
  }, 60_000);

  it("runs the docs' code samples as written against the real server: curl and the TypeScript client, every operation", async () => {
    const samples = codeSamples(spec);
    expect([...samples.keys()].sort()).toEqual(
      specOperations(spec)
        .map(({ operation }) => operation.operationId)
        .sort(),
    );
    // The value of each path parameter, by its name, from the seeded workspace.
    const records: Record<string, string> = { hash: demo.key_hash, id: demo.destination_id, slug: demo.preset_slug };
    const env: Record<string, string | undefined> = {
      ...process.env,
      API_URL: `${server.baseUrl}/api/v1`,
      API_KEY: demo.management_key,
    };
    for (const { parameters } of specOperations(spec))
      for (const parameter of parameters.filter((p) => p.in === 'path')) {
        const value = records[parameter.name];
        if (value === undefined) throw new Error(`no seeded record for path parameter ${parameter.name}`);
        env[parameter.name.toUpperCase()] = value;
      }
    const files = [...samples].map(([operationId, sample]) => {
      writeFileSync(join(consumer, `sample-${operationId}.ts`), sample.typescript);
      return `sample-${operationId}.ts`;
    });
    const compiled = await compile(files, 'out');
    expect(compiled.output).toBe('');
    for (const [operationId, sample] of samples) {
      const typescript = await exec(process.execPath, [`out/sample-${operationId}.js`], { cwd: consumer, env });
      const curl = await exec('sh', ['-c', sample.curl], { env });
      for (const output of [typescript.stdout, curl.stdout]) {
        const answer = JSON.parse(output) as Record<string, unknown>;
        expect(answer.error, `${operationId}: ${output}`).toBeUndefined();
      }
    }
    expect(server.serverErrors()).toEqual([]);
  }, 60_000);

  it('packs only the built files, the types, its README and the LICENSE, within its size budget', async () => {
    const { stdout } = await exec('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n').sort();
    expect(files).toEqual([
      'package/LICENSE',
      'package/README.md',
      'package/dist/client/errors.d.ts',
      'package/dist/client/errors.js',
      'package/dist/client/index.d.ts',
      'package/dist/client/index.js',
      'package/dist/client/retrying-fetch.d.ts',
      'package/dist/client/retrying-fetch.js',
      'package/dist/generated/api.d.ts',
      'package/package.json',
    ]);
    const kilobytes = statSync(tarball).size / 1024;
    console.log(`tarball: ${kilobytes.toFixed(1)} KB`);
    expect(kilobytes).toBeLessThanOrEqual(30);
    expect(readFileSync(join(projectRoot, 'client', 'LICENSE'), 'utf8')).toBe(
      readFileSync(join(projectRoot, 'LICENSE'), 'utf8'),
    );
  });

  it('publishes (dry run) with the same files', async () => {
    const { stdout, stderr } = await npm(['publish', '--dry-run', '--workspace', 'client', '--json'], projectRoot);
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as Record<string, { files: { path: string }[] }>;
    const files = (report[clientPackage.name] ?? Object.values(report)[0])?.files.map((f) => f.path).sort();
    expect(files, stderr).toContain('dist/client/index.js');
    expect(files).not.toContain('dist/generated/api.js');
    expect(
      files?.every((path) =>
        /^(dist\/(client\/[\w-]+\.(js|d\.ts)|generated\/api\.d\.ts)|README\.md|LICENSE|package\.json)$/.test(path),
      ),
    ).toBe(true);
  }, 60_000);

  it('asks for no public access, as its README says it is not on the public registry but packed', () => {
    expect(clientPackage.publishConfig?.access).not.toBe('public');
    expect(readFileSync(join(projectRoot, 'client', 'README.md'), 'utf8')).toContain(
      'The package is not on the public npm registry: it is distributed as the tarball that `npm pack`',
    );
  });

  it('follows the major version of the contract', () => {
    const contractVersion = /^\s+version: (\d+)\./m.exec(readFileSync(join(projectRoot, 'openapi.yaml'), 'utf8'))?.[1];
    expect(clientPackage.version.split('.')[0]).toBe(contractVersion);
    expect(Object.keys(clientPackage.dependencies)).toEqual(['openapi-fetch']);
    expect(readdirSync(join(consumer, 'node_modules', clientPackage.name, 'dist', 'generated'))).toEqual(['api.d.ts']);
  });
});
