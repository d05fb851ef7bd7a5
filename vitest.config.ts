import { defineConfig } from 'vitest/config';
import { findTestServices } from './test/support/runner/services.js';

// The store and server suites run on SQLite always, and again on PostgreSQL when
// TEST_POSTGRES_URL names a server where the tests may create and drop databases, or when
// PostgreSQL answers on its default loopback port (test/support/runner/services.ts); Redis alike.
// The config is read once per project: the lines are said once.
const serviceLines = await findTestServices(process.env);
if (!process.env.TEST_SERVICES_SAID) console.log(serviceLines.join('\n'));
process.env.TEST_SERVICES_SAID = '1';
const postgresSuites = [
  'test/server/keys.test.ts',
  'test/server/official-sdk.test.ts',
  'test/server/destinations.test.ts',
  'test/server/presets.test.ts',
  'test/server/conditional-pages.test.ts',
  'test/store/preset-page-json.test.ts',
  'test/store/migrations.test.ts',
  'test/store/release-overlap.test.ts',
  'test/store/read-once.test.ts',
  'test/store/read-only.test.ts',
  'test/store/copy-database.test.ts',
  'test/store/sealed-keys.test.ts',
  'test/server/errors.test.ts',
  'test/server/unstorable-text.test.ts',
  'test/server/regex-filter-rules.test.ts',
  'test/server/not-utf8.test.ts',
  'test/server/tracing.test.ts',
  'test/server/tracing-sampling.test.ts',
  'test/server/request-span.test.ts',
  'test/server/request-span-refusals.test.ts',
  'test/server/server-tracing.test.ts',
  'test/client/server.test.ts',
  'test/conformance/properties.test.ts',
  'test/conformance/independent-rules.test.ts',
  'test/conformance/command.test.ts',
  'test/bench/straightforward-baseline.test.ts',
  'test/workflows/workflows.test.ts',
  'test/postgres/**/*.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    // The default output, and one line per skipped suite saying why.
    reporters: ['default', './test/support/runner/skip-reasons-reporter.ts'],
    // What each test file's servers exercised of the contract, for scripts/contract-coverage/index.ts.
    setupFiles: ['./test/support/runner/contract-coverage-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          exclude: ['test/postgres/**'],
          // Type-level tests (*.test-d.ts) fail on a type error, as tests of their own.
          typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: process.env.TEST_POSTGRES_URL ? postgresSuites : ['test/postgres/availability.test.ts'],
          env: { TEST_DATABASE: 'postgres' },
        },
      },
    ],
  },
});
