// A newcomer finds a module's tests from its imports: a test file that imports the module, or its
// line in test/module-tests.ts for a module the tests reach only through others. Both ways are held
// here, read from the files as they are, so that a new module without either, a line for a module
// that a test imports or that no longer exists, and a listed test file that is gone or no longer
// reaches its module, fail by name.
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TESTS_OF_MODULE } from '../module-tests.js';
import { type Import, importsOf, reachedFrom } from '../support/imports.js';
import { projectRoot } from '../support/process.js';

function filesUnder(dir: string, name: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path, name);
    return name.test(entry.name) ? [relative(projectRoot, path)] : [];
  });
}

const modules = filesUnder(join(projectRoot, 'server'), /\.ts$/);
const testFiles = filesUnder(join(projectRoot, 'test'), /\.test(-d)?\.ts$/);

/** For each file that test files import, not for its types only, the test files that do. */
const importers = new Map<string, string[]>();
for (const test of testFiles)
  for (const target of new Set(importsOf(test).flatMap((entry) => (entry.typeOnly ? [] : [entry.target]))))
    importers.set(target, [...(importers.get(target) ?? []), test]);

const cache = new Map<string, Import[]>();
const reaches = (test: string, module: string) => reachedFrom(test, cache).has(module);

describe("a server module's tests", () => {
  it('are read: modules of server/, test files and their imports are found', () => {
    expect(modules.length).toBeGreaterThan(50);
    expect(testFiles.length).toBeGreaterThan(100);
    expect(modules.filter((module) => importers.has(module)).length).toBeGreaterThan(50);
    // Through the app: test/support/server.ts imports server/app.ts.
    expect(reaches('test/server/keys.test.ts', 'server/operations/get-key.ts')).toBe(true);
    // Through an entry point run as a process, and the folder of migrations it reads.
    expect(reaches('test/server/cli.test.ts', 'server/cli.ts')).toBe(true);
    expect(reaches('test/server/cli.test.ts', 'server/store/migrations/0001_initial.ts')).toBe(true);
    expect(reaches('test/domain/storable-text.test.ts', 'server/http/storable-text.ts')).toBe(false);
  });

  it('are test files that import the module, or those on its line of test/module-tests.ts', () => {
    const untested = modules
      .filter((module) => !importers.has(module) && !(module in TESTS_OF_MODULE))
      .map((module) => `${module}: no test file imports it and it has no line in test/module-tests.ts`);
    expect(untested.join('\n')).toBe('');
  });

  it('are listed only for modules that exist and that no test file imports', () => {
    const refused = Object.keys(TESTS_OF_MODULE).flatMap((module) => {
      if (!modules.includes(module)) return [`${module}: no such module in server/`];
      const tests = importers.get(module);
      return tests ? [`${module}: imported by ${tests.join(', ')}; its line is not needed`] : [];
    });
    expect(refused.join('\n')).toBe('');
  });

  it('are files that exist and reach the module through their imports', () => {
    const wrong = Object.entries(TESTS_OF_MODULE).flatMap(([module, tests]) =>
      tests.length === 0
        ? [`${module}: no test file listed`]
        : tests.flatMap((test) => {
            if (!existsSync(join(projectRoot, test))) return [`${module}: ${test} does not exist`];
            return reaches(test, module) ? [] : [`${module}: ${test} does not reach it through its imports`];
          }),
    );
    expect(wrong.join('\n')).toBe('');
  });
});
