// Stryker's Vitest runner 9.6.1, patched at install from patches/ (notes/patched-dependencies.md):
// a test that a failing hook keeps from running is skipped, and the runner counts it as failed when
// a suite around it failed, but found no suite for a test at the top of its file, so a mutant that
// made a file-level beforeAll throw failed no test and was reported
// survived. The patch takes the file as that test's suite. Drop the patch, and this test, once a
// release of the runner counts such a test as failed.
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';

/** What this test uses of the runner, which the package does not export by name. */
interface Runner {
  init(): Promise<void>;
  dryRun(options: { coverageAnalysis: 'off'; disableBail: boolean }): Promise<unknown>;
  dispose(): Promise<void>;
}
type RunnerClass = new (options: object, log: object, globalNamespace: string) => Runner;

const require = createRequire(import.meta.url);
const packageJson = require.resolve('@stryker-mutator/vitest-runner/package.json');
const installed = (require(packageJson) as { version: string }).version;

const quiet = { isDebugEnabled: () => false, debug() {}, info() {}, warn() {}, error() {}, trace() {} };
let runner: Runner;
/** Stryker's TestStatus, as the runner's own copy of the plugin API has it. */
type Statuses = Record<'Success' | 'Failed', number>;
let TestStatus: Statuses;

beforeAll(async () => {
  ({ TestStatus } = (await import(
    pathToFileURL(createRequire(packageJson).resolve('@stryker-mutator/api/test-runner')).href
  )) as { TestStatus: Statuses });
  const { VitestTestRunner } = (await import(
    new URL('dist/src/vitest-test-runner.js', pathToFileURL(packageJson)).href
  )) as { VitestTestRunner: RunnerClass };
  const configFile = fileURLToPath(new URL('fixtures/hook-failure/vitest.config.ts', import.meta.url));
  runner = new VitestTestRunner(
    { vitest: { configFile, related: false }, disableBail: true },
    quiet,
    '__stryker_patch__',
  );
  await runner.init();
}, 60_000);

afterAll(async () => {
  await runner.dispose();
});

it('is the version the patch is for', () => {
  expect(installed).toBe('9.6.1');
});

it('counts a test that a failing hook kept from running as failed, at file level too, and the others as they ran', async () => {
  const result = (await runner.dryRun({ coverageAnalysis: 'off', disableBail: true })) as {
    status: string;
    tests: { name: string; status: number; failureMessage?: string }[];
  };
  expect(result.status).toBe('complete');
  const byName = Object.fromEntries(result.tests.map((test) => [test.name, test]));
  expect(byName['a suite whose hook fails never runs']).toMatchObject({
    status: TestStatus.Failed,
    failureMessage: 'the hook failed',
  });
  expect(byName['never runs either']).toMatchObject({
    status: TestStatus.Failed,
    failureMessage: 'the file hook failed',
  });
  expect(byName['a suite whose hook passes runs and passes']).toMatchObject({ status: TestStatus.Success });
}, 60_000);
