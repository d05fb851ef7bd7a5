// What a whole mutation run mutates (stryker.config.json's patterns, read by git as pathspecs),
// what a scoped run's patterns name, and how the record stands against the tree as it is now.
import type { MutantResult, MutationTestResult } from 'mutation-testing-report-schema';
import { describe, expect, it } from 'vitest';
import { mutantCounts, scopedPatterns, treeCoverage, wholeRunFiles } from '../../scripts/mutation/scope.js';
import { formatTreeCoverage } from '../../scripts/mutation/score.js';

describe('the files a whole mutation run mutates', () => {
  it("are stryker.config.json's: the server's code in, its entry points out", () => {
    const files = wholeRunFiles();
    expect(files).toContain('server/http/auth.ts');
    expect(files).toContain('client/index.ts');
    expect(files).not.toContain('server/main.ts');
    expect(files.every((file) => file.endsWith('.ts'))).toBe(true);
  });
});

describe("a scoped run's patterns", () => {
  const wholeRun = wholeRunFiles();

  it('turn a glob into the files of the whole run it matches, so what the whole run leaves out stays out', () => {
    const files = scopedPatterns(['server/*.ts'], wholeRun);
    expect(files).toContain('server/app.ts');
    expect(files).not.toContain('server/main.ts');
    expect(files.every((file) => /^server\/[^/]+\.ts$/.test(file))).toBe(true);
  });

  it("keep a file's line range on the file", () => {
    expect(scopedPatterns(['server/http/auth.ts:10-12', 'client/index.ts:3:1-4:9'], wholeRun)).toEqual([
      'server/http/auth.ts:10-12',
      'client/index.ts:3:1-4:9',
    ]);
  });

  it('refuse a pattern that names no file of the whole run, naming it', () => {
    expect(() => scopedPatterns(['server/main.ts'], wholeRun)).toThrow(
      'server/main.ts names no file that a whole mutation run mutates',
    );
  });
});

describe('the mutants Stryker makes of a file', () => {
  it('counts none for types and numbers only, and one for each change it would make', async () => {
    const sources: Record<string, string> = {
      'types.ts': 'export type A = { b: number };\nexport const LIMIT = 100;\n',
      'code.ts': "export function greet(name: string) { return name === '' ? 'nobody' : name; }\n",
    };
    const counts = await mutantCounts(Object.keys(sources), (file) => sources[file] ?? '');
    expect(counts.get('types.ts')).toBe(0);
    expect(counts.get('code.ts')).toBeGreaterThanOrEqual(4);
  });
});

describe('the record against the tree', () => {
  const killed: MutantResult = {
    id: '1',
    mutatorName: 'StringLiteral',
    replacement: '""',
    status: 'Killed',
    location: { start: { line: 1, column: 1 }, end: { line: 1, column: 5 } },
  };
  const record: MutationTestResult = {
    schemaVersion: '2',
    thresholds: { high: 90, low: 85 },
    files: {
      'server/same.ts': { language: 'typescript', source: 'same text', mutants: [killed] },
      'server/edited.ts': { language: 'typescript', source: 'old text', mutants: [killed] },
    },
  };
  const now: Record<string, string> = {
    'server/same.ts': 'same text',
    'server/edited.ts': 'new text',
    'server/new.ts': 'new code',
    'server/types.ts': 'types',
  };
  const counts = new Map([
    ['server/same.ts', 3],
    ['server/edited.ts', 4],
    ['server/new.ts', 5],
    ['server/types.ts', 0],
  ]);

  it('holds a file as it stands only when the text its mutants were tested on is its text now', () => {
    expect(treeCoverage(record, counts, (file) => now[file] ?? '')).toEqual({
      current: ['server/same.ts'],
      changed: ['server/edited.ts'],
      untested: ['server/new.ts'],
      withoutMutants: ['server/types.ts'],
    });
  });

  it('says how many files and mutants are in it as they stand, and names the others', () => {
    const text = formatTreeCoverage(
      treeCoverage(record, counts, (file) => now[file] ?? ''),
      counts,
    );
    expect(text.split('\n')).toEqual([
      'The record against the tree: 1 of the 3 files a whole run mutates, with 3 of its 12 mutants, are in it as they stand now (Stryker makes no mutant of 1 more).',
      'Changed since their mutants were tested (1): server/edited.ts',
      'Not in the record (1): server/new.ts',
      'The scores below are of the record only: npm run test:mutation, or test:mutation:scoped over those files, tests them.',
    ]);
  });

  it('says nothing more when the record holds every file as it stands', () => {
    const whole = { current: ['server/same.ts'], changed: [], untested: [], withoutMutants: [] };
    expect(formatTreeCoverage(whole, new Map([['server/same.ts', 3]]))).toBe(
      'The record against the tree: 1 of the 1 files a whole run mutates, with 3 of its 3 mutants, are in it as they stand now (Stryker makes no mutant of 0 more).',
    );
  });
});
