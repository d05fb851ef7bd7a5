// Where the tests of a module of server/ are, for the modules that no test file imports: those the
// tests reach through the app over HTTP, through an entry point they run as a process, or through
// other modules. A module that a test file imports (statically, dynamically or by `vi.mock`; an
// `import type` does not count) is tested there and has no line here.
// test/architecture/module-tests.test.ts holds the map complete: every module of server/ is found
// one way or the other, no line is here for a module that a test file imports or that no longer
// exists, and every file named here exists and reaches its module through its imports.
export const TESTS_OF_MODULE: Readonly<Record<string, readonly string[]>> = {
  'server/cli.ts': ['test/server/cli.test.ts', 'test/server/cli-messages.test.ts'],
  'server/config-values.ts': ['test/server/config.test.ts'],
  'server/domain/data-regions.ts': ['test/server/destinations.test.ts'],
  'server/domain/limits.ts': ['test/server/keys.test.ts'],
  'server/validation/operation.ts': ['test/contract/operation-binding.test.ts'],
  'server/validation/body-sizes.ts': [
    'test/hardening/body-sizes.test.ts',
    'test/server/validation-error-fields.test.ts',
  ],
  'server/operations/stored-object-rules.ts': ['test/server/one-400.test.ts'],
  'server/validation/marked-values.ts': ['test/server/one-400.test.ts', 'test/server/regex-filter-rules.test.ts'],
  'server/http/request-head.ts': ['test/server/request-shape.test.ts', 'test/hardening/expect-continue.test.ts'],
  'server/http/root.ts': ['test/server/root-answer.test.ts'],
  'server/validation/text-fields.ts': ['test/server/unstorable-text.test.ts', 'test/server/not-utf8.test.ts'],
  'server/main.ts': ['test/server/secrets-check.test.ts', 'test/server/cli.test.ts'],
  'server/operations/dispatch.ts': ['test/server/operation-requests.test.ts'],
  'server/operations/filled-by-validator.ts': ['test/server/presets.test.ts'],
  'server/operations/get-key.ts': ['test/server/keys.test.ts'],
  'server/operations/types.ts': ['test/server/operation-requests.test.ts'],
  'server/operations/update-observability-destination.ts': ['test/server/destinations.test.ts'],
  'server/provisioning/database-commands.ts': ['test/provisioning/cli-commands.test.ts', 'test/server/cli.test.ts'],
  'server/regex/ambiguity.ts': [
    'test/regex/linearity.test.ts',
    'test/regex/reference-checker.test.ts',
    'test/regex/analysis-costs.test.ts',
  ],
  'server/regex/budget.ts': ['test/regex/linearity.test.ts', 'test/regex/analysis-costs.test.ts'],
  'server/regex/positions.ts': [
    'test/regex/linearity.test.ts',
    'test/regex/reference-checker.test.ts',
    'test/regex/analysis-costs.test.ts',
  ],
  'server/regex/syntax.ts': ['test/regex/linearity.test.ts', 'test/regex/analysis-costs.test.ts'],
  'server/secrets-key.ts': ['test/server/dev-secrets-key.test.ts', 'test/server/config.test.ts'],
  'server/store/call-trace.ts': ['test/server/request-span.test.ts'],
  'server/store/copy/copy-checks.ts': ['test/store/copy-database.test.ts'],
  'server/store/copy/open-sides.ts': ['test/store/copy-database.test.ts'],
  'server/store/copy/postgres-side.ts': ['test/store/copy-database.test.ts'],
  'server/store/copy/side-checksums.ts': ['test/store/copy-database.test.ts'],
  'server/store/copy/sides.ts': ['test/store/copy-database.test.ts'],
  'server/store/copy/sqlite-side.ts': ['test/store/copy-database.test.ts'],
  'server/store/destinations.ts': ['test/server/destinations.test.ts', 'test/store/store-operations.test.ts'],
  'server/store/migrations/0001_initial.ts': ['test/store/migrations.test.ts', 'test/store/schema.test.ts'],
  'server/store/migrations/0002_external_user_broadcast_regions.ts': [
    'test/store/migrations.test.ts',
    'test/store/release-overlap.test.ts',
  ],
  'server/store/migrations/0003_expand_data_moves.ts': ['test/store/read-only.test.ts', 'test/store/schema.test.ts'],
  'server/store/read-only.ts': ['test/store/read-only.test.ts'],
  'server/store/sealed-keys.ts': ['test/store/sealed-keys.test.ts'],
  'server/store/sqlite-better-driver.ts': ['test/store/sqlite-drivers.test.ts'],
  'server/store/sqlite-boolean-plugin.ts': ['test/store/store-operations.test.ts'],
  'server/store/sqlite-node-driver.ts': ['test/store/sqlite-drivers.test.ts'],
  'server/store/unavailable.ts': ['test/hardening/sqlite-unwritable.test.ts', 'test/postgres/outage.test.ts'],
  'server/store/workspaces.ts': ['test/store/store-operations.test.ts'],
  'server/storeless-context.ts': ['test/provisioning/copy-command.test.ts', 'test/provisioning/backup-command.test.ts'],
  'server/telemetry/request-span.ts': ['test/server/request-span.test.ts', 'test/server/request-span-refusals.test.ts'],
  'server/telemetry/server-tracing.ts': ['test/server/server-tracing.test.ts'],
  'server/telemetry/traced-calls.ts': ['test/server/request-span.test.ts', 'test/server/tracing.test.ts'],
  'server/telemetry/tracing.ts': ['test/server/tracing.test.ts', 'test/server/tracing-sampling.test.ts'],
};
