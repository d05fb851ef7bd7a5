// The reporter that says why a suite was skipped, on the default output.
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import SkipReasonsReporter from '../support/runner/skip-reasons-reporter.js';

function moduleWith(file: string, suites: [string, string][], tests: [string, string][]): TestModule {
  return {
    moduleId: join(process.cwd(), file),
    children: {
      *allSuites() {
        for (const [name, state] of suites) yield { name, state: () => state };
      },
      *allTests(state?: string) {
        for (const [name, testState] of tests) if (state === undefined || state === testState) yield { name };
      },
    },
  } as unknown as TestModule;
}

describe('the skip-reasons reporter', () => {
  it('prints one line per skipped suite or test that gives its reason, and nothing for the rest', () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      new SkipReasonsReporter().onTestRunEnd([
        moduleWith(
          'test/postgres/a.test.ts',
          [
            ['PostgreSQL suites (skipped: TEST_POSTGRES_URL is not set)', 'skipped'],
            ['docs (skipped: no chromium)', 'passed'],
            ['plain suite', 'skipped'],
          ],
          [['a test (skipped: no Redis)', 'skipped']],
        ),
      ]);
      expect(write).toHaveBeenCalledTimes(1);
      expect(write.mock.calls[0]?.[0]).toBe(
        '\nPostgreSQL suites skipped: TEST_POSTGRES_URL is not set (test/postgres/a.test.ts)\n' +
          'a test skipped: no Redis (test/postgres/a.test.ts)\n',
      );
      write.mockClear();
      new SkipReasonsReporter().onTestRunEnd([moduleWith('test/x.test.ts', [['ran', 'passed']], [])]);
      expect(write).not.toHaveBeenCalled();
    } finally {
      write.mockRestore();
    }
  });
});
