// A newcomer finds a module's tests from its name: a test file named after the module, or its line
// in test/module-tests.ts. Both ways are held here, so that a new module without either, a line
// for a module that has a file of its own or no longer exists, and a test file renamed away from
// its line, fail by name.
import { existsSync, readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TESTS_OF_MODULE } from '../module-tests.js';
import { projectRoot } from '../support/process.js';

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'support' ? [] : filesUnder(path, suffix);
    return entry.name.endsWith(suffix) ? [relative(projectRoot, path)] : [];
  });
}

const modules = filesUnder(join(projectRoot, 'server'), '.ts');
const testNames = new Set(
  filesUnder(join(projectRoot, 'test'), '.ts')
    .filter((file) => /\.test(-d)?\.ts$/.test(file))
    .map((file) => basename(file).replace(/\.test(-d)?\.ts$/, '')),
);
const namedAfter = (module: string) => testNames.has(basename(module, '.ts'));

describe("a server module's tests", () => {
  it('are read: modules of server/ and test files are found', () => {
    expect(modules.length).toBeGreaterThan(50);
    expect(modules.filter(namedAfter).length).toBeGreaterThan(20);
  });

  it('are in a file named after the module, or on its line of test/module-tests.ts', () => {
    expect(modules.filter((module) => !namedAfter(module) && !(module in TESTS_OF_MODULE))).toEqual([]);
  });

  it('are listed only for modules that exist and have no file named after them', () => {
    const listed = Object.keys(TESTS_OF_MODULE);
    expect(listed.filter((module) => !modules.includes(module))).toEqual([]);
    expect(listed.filter(namedAfter)).toEqual([]);
  });

  it('are files that exist', () => {
    const missing = Object.entries(TESTS_OF_MODULE).flatMap(([module, tests]) =>
      tests.length === 0
        ? [`${module}: none`]
        : tests.filter((test) => !existsSync(join(projectRoot, test))).map((test) => `${module}: ${test}`),
    );
    expect(missing).toEqual([]);
  });
});
