// Stryker's Vitest runner 9.6.1, patched at install from patches/ (notes/patched-dependencies.md),
// run here on the fixtures of fixtures/runner/. Drop each patch, and its test, once a release of the
// runner does what the test asks:
// - 001: a test that a failing hook keeps from running is skipped, and the runner counts it as
//   failed when a suite around it failed, but found no suite for a test at the top of its file, so
//   a mutant that made a file-level beforeAll throw failed no test and was reported survived.
// - 002: a mutant's run took the tests that cover it and kept only those in files Vitest finds
//   related to the mutated file, a search that does not follow a dynamic import: a mutant of a
//   module loaded that way (the migrations) ran no test at all and was reported survived.
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';

/** What this test uses of the runner, which the package does not export by name. */
interface Runner {
  init(): Promise<void>;
  dryRun(options: { coverageAnalysis: 'off'; disableBail: boolean }): Promise<unknown>;
  mutantRun(options: {
    activeMutant: { id: string };
    testFilter: string[];
    sandboxFileName: string;
    mutantActivation: 'runtime';
    timeout: number;
    disableBail: boolean;
  }): Promise<unknown>;
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
const fixture = (file: string): string => fileURLToPath(new URL(`fixtures/runner/${file}`, import.meta.url));
type DryRun = { status: string; tests: { id: string; name: string; status: number; failureMessage?: string }[] };

beforeAll(async () => {
  ({ TestStatus } = (await import(
    pathToFileURL(createRequire(packageJson).resolve('@stryker-mutator/api/test-runner')).href
  )) as { TestStatus: Statuses });
  const { VitestTestRunner } = (await import(
    new URL('dist/src/vitest-test-runner.js', pathToFileURL(packageJson)).href
  )) as { VitestTestRunner: RunnerClass };
  // As the project's runs have it: related files narrow the tests a run starts from.
  runner = new VitestTestRunner(
    { vitest: { configFile: fixture('vitest.config.ts'), related: true }, disableBail: true },
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
  const result = (await runner.dryRun({ coverageAnalysis: 'off', disableBail: true })) as DryRun;
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

it('runs the tests that cover a mutant of a module that only a dynamic import reaches, and they kill it', async () => {
  const dry = (await runner.dryRun({ coverageAnalysis: 'off', disableBail: true })) as DryRun;
  const covering = dry.tests.filter((test) => test.name === 'reads the greeting of the module it loads');
  expect(covering.map((test) => test.status)).toEqual([TestStatus.Success]);
  const result = await runner.mutantRun({
    activeMutant: { id: 'empty-greeting' },
    testFilter: covering.map((test) => test.id),
    sandboxFileName: fixture('loaded.ts'),
    mutantActivation: 'runtime',
    timeout: 30_000,
    disableBail: true,
  });
  expect(result).toMatchObject({ status: 'killed', nrOfTests: 1 });
}, 60_000);
