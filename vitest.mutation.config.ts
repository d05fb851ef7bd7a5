import { defineConfig } from 'vitest/config';
import MutationSequencer from './test/support/runner/mutation-sequencer.js';

// The suites a mutation run uses: the ones that run the server's code in the test's own process, on
// SQLite. Suites that drive a spawned process (the CLI, `npm start`, restarts, Prism, Chromium) or
// PostgreSQL and Redis are left out: a mutant is switched on inside the test process only, so they
// could not kill one and would only slow every run.
export default defineConfig({
  test: {
    environment: 'node',
    setupFiles: ['test/support/runner/mutation-hook-coverage.ts'],
    // One module registry for all the files of a run: Stryker runs each mutant's covering files in
    // one worker, started afresh for every run, so the server's modules load once per mutant rather
    // than once per file (1.3 s a file), and nothing outlives the run. A file that changes what
    // modules see (vi.mock) resets the registry when it ends.
    isolate: false,
    sequence: { sequencer: MutationSequencer },
    include: ['test/**/*.test.ts'],
    exclude: [
      'test/postgres/**',
      'test/docs/**',
      'test/spec-diff/**',
      'test/server/main.test.ts',
      'test/server/npm-start.test.ts',
      'test/server/cli.test.ts',
      'test/server/cli-messages.test.ts',
      'test/hardening/rate-limit-redis.test.ts',
      'test/hardening/redis-outage.test.ts',
      'test/hardening/rolling-restart.test.ts',
      'test/hardening/secrets-rotation.test.ts',
      'test/hardening/shutdown-and-crash.test.ts',
      'test/hardening/hostile-traffic.test.ts',
      // Bodies, pipelined requests and latencies measured against a server in a process of its own.
      'test/hardening/amplification.test.ts',
      'test/hardening/unread-answers.test.ts',
      'test/client/package.test.ts',
      'test/deploy/**',
      'test/client/prism-mock.test.ts',
      'test/conformance/prism-proxy.test.ts',
      'test/tooling/skip-reasons-reporter.test.ts',
      // The tests of the mutation scripts: they test scripts/, which is not mutated, and read git,
      // which a Stryker sandbox is not.
      'test/mutation/**',
      // Tests of the contract-coverage report, a script of scripts/, run as a process; and the walk
      // through the steps of adding an operation, on a copy of the project.
      'test/tooling/contract-coverage.test.ts',
      'test/contract/add-an-operation.test.ts',
      // The patched validator against the released copy: it tests a dependency, not server/, and
      // takes 8 s of every run that reaches the server's validator options.
      'test/contract/validator-patch.test.ts',
      // The patched Ajv: it tests a dependency, not server/.
      'test/contract/ajv-patch.test.ts',
      // Rules read off the source text: a run's sandbox holds the instrumented text, with every
      // mutant of a file in it whichever is switched on, so they answer alike for all mutants.
      'test/architecture/**',
      // The client bundled for the browser: it weighs the client's code, which a mutation run
      // instruments (11 KB where 10 are allowed), and kills no mutant the client's own tests miss.
      'test/client/browser-bundle.test.ts',
    ],
    // A fixed seed and fewer property runs: the same mutant meets the same requests in every run.
    env: { TEST_DATABASE: 'sqlite', TEST_REDIS_URL: '', TEST_POSTGRES_URL: '', FC_RUNS: '50', FC_SEED: '20261124' },
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
