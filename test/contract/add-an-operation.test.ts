// The steps to add an operation (CONTRIBUTING.md, "Editing the contract"), walked on a copy of the project:
// a GET of one destination in openapi.yaml, `npm run generate`, one handler module and its line in
// the handler table. Then everything outside test/ typechecks; the type checker names the test
// tables that take a line for it (three at most, each about the new operation); the conformance
// command says what the operation lacks (it documents no 400); the tests that read the contract
// cover it already; and the contract coverage names what its tests still lack.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/process.js';

const OPERATION_ID = 'getObservabilityDestination';
const NEW_OPERATION = `    get:
      operationId: ${OPERATION_ID}
      tags: [Observability]
      summary: Get one observability destination.
      description: The destination with its secrets masked.
      security:
        - bearerAuth: [management]
      parameters:
        - name: id
          in: path
          required: true
          schema: {type: string, format: uuid, maxLength: 36}
          example: 7019b9f2-c5e6-4f46-873e-55a17bb095a3
      responses:
        '200':
          description: The destination.
          headers:
            Cache-Control: {$ref: '#/components/headers/CacheControlNoStore'}
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/ObservabilityDestinationResponse'
              example:
                data:
                  id: 7019b9f2-c5e6-4f46-873e-55a17bb095a3
                  workspace_id: de49e673-b89d-4f9b-be0c-cb20ba26f67b
                  name: Collector
                  type: otel-collector
                  enabled: true
                  privacy_mode: false
                  sampling_rate: 1
                  api_key_hashes: null
                  filter_rules: null
                  broadcast_generation_cost: false
                  broadcast_generation_identity: false
                  broadcast_generation_request_context: false
                  regions: [global]
                  config: {endpoint: 'https://otel.example.com'}
                  created_at: '2026-03-04T10:15:00.000Z'
                  updated_at: '2026-11-23T09:41:27.000Z'
        '401': {$ref: '#/components/responses/Unauthorized'}
        '403': {$ref: '#/components/responses/Forbidden'}
        '404': {$ref: '#/components/responses/DestinationNotFound'}
        '429': {$ref: '#/components/responses/TooManyRequests'}
        '500': {$ref: '#/components/responses/InternalError'}
        '503': {$ref: '#/components/responses/ServiceUnavailable'}
`;
const HANDLER = `import { HttpError } from '../http/errors.js';
import type { Handler } from './types.js';

export const ${OPERATION_ID}: Handler<'${OPERATION_ID}'> = async ({ path }) => {
  throw new HttpError(404, \`No observability destination \${path.id} in your workspace.\`);
};
`;

let copy = '';
const inCopy = (file: string) => join(copy, file);
const edit = (file: string, change: (text: string) => string) =>
  writeFileSync(inCopy(file), change(readFileSync(inCopy(file), 'utf8')));
/** The environment of a run in the copy, without this vitest run's own variables. */
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
const run = (args: string[]) =>
  spawnSync(process.execPath, args, { cwd: copy, encoding: 'utf8', env: cleanEnv(), timeout: 150_000 });

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'add-an-operation-'));
  // The project as the working tree has it: the files git tracks or would track, uncommitted changes
  // included; a file deleted but not yet committed is listed and absent, and left out.
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: projectRoot,
    encoding: 'utf8',
  }).split('\0');
  for (const file of listed.filter((path) => path && existsSync(join(projectRoot, path)))) {
    mkdirSync(dirname(inCopy(file)), { recursive: true });
    copyFileSync(join(projectRoot, file), inCopy(file));
  }
  symlinkSync(join(projectRoot, 'node_modules'), inCopy('node_modules'));
  // 1. The spec: the operation under the path of the destination it reads.
  edit('openapi.yaml', (text) => {
    if (text.includes(`operationId: ${OPERATION_ID}\n`))
      throw new Error(
        `openapi.yaml has ${OPERATION_ID} already, the operation this test adds to a copy: give the test one the contract lacks (test/contract/add-an-operation.test.ts)`,
      );
    return text.replace(
      '  /observability/destinations/{id}:\n',
      `  /observability/destinations/{id}:\n${NEW_OPERATION}`,
    );
  });
  // 2. npm run generate.
  const generated = run([
    'node_modules/openapi-typescript/bin/cli.js',
    'openapi.yaml',
    '-o',
    'generated/api.ts',
    '--default-non-nullable',
    'false',
  ]);
  expect(generated.status, generated.stderr).toBe(0);
  // 3. One handler module, and its line in the table.
  writeFileSync(inCopy('server/operations/get-observability-destination.ts'), HANDLER);
  edit('server/operations/handlers.ts', (text) =>
    text
      .replace(
        "import { getKey } from './get-key.js';",
        `import { getKey } from './get-key.js';\nimport { ${OPERATION_ID} } from './get-observability-destination.js';`,
      )
      .replace('  getKey,\n', `  getKey,\n  ${OPERATION_ID},\n`),
  );
}, 60_000);
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('adding an operation as CONTRIBUTING.md says', () => {
  it('typechecks outside test/, and names at most three test tables, each about the new operation', () => {
    const checked = run(['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json']);
    const errors = checked.stdout.split('\n').filter((line) => /^\S.*\(\d+,\d+\): error/.test(line));
    const outsideTests = errors.filter((line) => !line.startsWith('test/'));
    expect(outsideTests, outsideTests.join('\n')).toEqual([]);
    const files = [...new Set(errors.map((line) => line.split('(')[0]))];
    expect(files.length).toBeGreaterThan(0);
    // A table per file, and a line for the new operation in each: the client's, the SDK's and the documented errors' calls.
    expect(files.length).toBeLessThanOrEqual(3);
    expect(errors.length).toBe(files.length);
    for (const line of errors) expect(line).toContain(OPERATION_ID);
  }, 150_000);

  it('fails the Prism rows of the client, until their table has its call, naming the operation', () => {
    const mock = run([
      'node_modules/vitest/vitest.mjs',
      'run',
      '--project',
      'sqlite',
      'test/client/prism-mock.test.ts',
    ]);
    const output = stripVTControlCharacters(`${mock.stdout}${mock.stderr}`);
    expect(mock.status, output.slice(-3000)).toBe(1);
    expect(output).toContain(`has no call for ${OPERATION_ID}`);
    expect(output).not.toContain('is not a function');
    // Only its rows fail: one per error status it documents.
    expect(output).toMatch(/Tests\s+6 failed \|/);
  }, 150_000);

  it("fails the conformance command's run only on the new operation, each failure saying what openapi.yaml lacks for it", () => {
    const conformance = run([
      'node_modules/vitest/vitest.mjs',
      'run',
      '--project',
      'sqlite',
      'test/conformance/command.test.ts',
    ]);
    const output = stripVTControlCharacters(`${conformance.stdout}${conformance.stderr}`);
    expect(conformance.status, output.slice(-3000)).toBe(1);
    // The operation as written documents no 400: every request that breaks its parameters says so.
    const failures = output.split('\n').filter((line) => /^\+\s+"/.test(line));
    expect(failures.length).toBeGreaterThan(0);
    for (const line of failures) {
      expect(line).toContain(OPERATION_ID);
      expect(line).toContain(`openapi.yaml lacks its response '400'`);
    }
    expect(output).toMatch(/Tests\s+1 failed \|/);
  }, 150_000);

  it('is covered by the tests that read the contract, which run green on it, and the coverage names what is left', () => {
    const tests = run([
      'node_modules/vitest/vitest.mjs',
      'run',
      '--reporter',
      'verbose',
      '--project',
      'sqlite',
      'test/server/errors.test.ts',
      'test/contract/operation-binding.test.ts',
      'test/contract/operation-binding-rules.test.ts',
      'test/hardening/refusal-order.test.ts',
    ]);
    expect(tests.status, tests.stdout.slice(-3000)).toBe(0);
    // The 405 rows of its path now come with its method, and HEAD with a GET.
    expect(tests.stdout).toContain('Allow: GET, HEAD, PATCH');
    const coverage = run(['node_modules/tsx/dist/cli.mjs', 'scripts/contract-coverage/index.ts']);
    expect(coverage.stderr).toContain(
      `documented, but no test exercises it: ${OPERATION_ID}: response 200 application/json`,
    );
  }, 150_000);
});
