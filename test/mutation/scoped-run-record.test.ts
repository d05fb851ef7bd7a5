// A run of some files or lines, merged into the record of the whole run: the files it mutated take
// its results, every other file keeps the record's, test ids stay the record's, and the record's
// words say which mutants were tested again, at which commit and when.
import type { MutantResult, MutationTestResult } from 'mutation-testing-report-schema';
import { describe, expect, it } from 'vitest';
import {
  describeRecord,
  type RunRecord,
  type ScopedRun,
  scopedFiles,
  withScopedResults,
} from '../../scripts/mutation/record.js';
import { inScopeCount } from '../../scripts/mutation/scoped.js';

const COMMIT = '0123456789abcdef0123456789abcdef01234567';

function mutant(id: string, line: number, status: MutantResult['status'], tests: string[] = []): MutantResult {
  return {
    id,
    mutatorName: 'StringLiteral',
    replacement: '""',
    status,
    location: { start: { line, column: 3 }, end: { line, column: 9 } },
    coveredBy: tests,
    killedBy: status === 'Killed' ? tests.slice(0, 1) : [],
  };
}

const whole: MutationTestResult = {
  schemaVersion: '2',
  thresholds: { high: 90, low: 85 },
  files: {
    'server/a.ts': { language: 'typescript', source: 'old a', mutants: [mutant('1', 1, 'Survived', ['0'])] },
    'server/b.ts': { language: 'typescript', source: 'b', mutants: [mutant('2', 1, 'Killed', ['1'])] },
  },
  testFiles: {
    'test/a.test.ts': { tests: [{ id: '0', name: 'a says so' }] },
    'test/b.test.ts': { tests: [{ id: '1', name: 'b says so' }] },
  },
};

const scoped: MutationTestResult = {
  schemaVersion: '2',
  thresholds: { high: 90, low: 85 },
  files: {
    'server/a.ts': {
      language: 'typescript',
      source: 'new a',
      mutants: [mutant('7', 1, 'Killed', ['5', '4']), mutant('8', 2, 'Ignored')],
    },
    'server/b.ts': { language: 'typescript', source: 'b changed', mutants: [] },
  },
  testFiles: {
    'test/a.test.ts': {
      tests: [
        { id: '4', name: 'a says so' },
        { id: '5', name: 'a says more' },
      ],
    },
  },
};

describe('a scoped run merged into the record', () => {
  it('replaces the results of its files only, keeping the record test ids and adding its new tests', () => {
    const merged = withScopedResults(whole, scoped, ['server/a.ts'], () => true);
    expect(merged.files['server/b.ts']).toEqual(whole.files['server/b.ts']);
    expect(merged.files['server/a.ts']?.source).toBe('new a');
    expect(
      merged.files['server/a.ts']?.mutants.map(({ id, coveredBy, killedBy }) => ({ id, coveredBy, killedBy })),
    ).toEqual([
      { id: '7', coveredBy: ['2', '0'], killedBy: ['2'] },
      { id: '8', coveredBy: [], killedBy: [] },
    ]);
    expect(merged.testFiles?.['test/a.test.ts']?.tests).toEqual([
      { id: '0', name: 'a says so' },
      { id: '2', name: 'a says more' },
    ]);
    expect(merged.testFiles?.['test/b.test.ts']).toEqual(whole.testFiles?.['test/b.test.ts']);
    expect(whole.testFiles?.['test/a.test.ts']?.tests).toHaveLength(1);
  });

  it('leaves out the files of the record that are gone: no longer in the tree, or no longer mutated', () => {
    const merged = withScopedResults(whole, scoped, ['server/a.ts'], (file) => file !== 'server/b.ts');
    expect(Object.keys(merged.files)).toEqual(['server/a.ts']);
  });

  it('drops a file the scoped run found nothing to mutate in: it has no mutants now', () => {
    const { 'server/b.ts': _found, ...withoutB } = scoped.files;
    const merged = withScopedResults(whole, { ...scoped, files: withoutB }, ['server/a.ts', 'server/b.ts'], () => true);
    expect(Object.keys(merged.files)).toEqual(['server/a.ts']);
    expect(Object.keys(withScopedResults(whole, scoped, ['server/c.ts'], () => true).files).sort()).toEqual(
      Object.keys(whole.files).sort(),
    );
  });

  it('names its files without their line ranges, and counts the mutants its patterns hold', () => {
    const mutate = ['server/a.ts:1:1-1:400', 'server/b.ts'];
    expect(scopedFiles([...mutate, 'server/a.ts:2-3'])).toEqual(['server/a.ts', 'server/b.ts']);
    // Mutant 8, on line 2, is outside the range and ignored besides; b.ts has none.
    expect(inScopeCount(scoped, mutate)).toBe(1);
    expect(inScopeCount(scoped, ['server/a.ts'])).toBe(1);
    expect(inScopeCount(whole, ['server/a.ts', 'server/b.ts'])).toBe(2);
  });

  it('is said after the whole run in the words of the record', () => {
    const run: ScopedRun = {
      commit: 'fedcba9876543210fedcba9876543210fedcba98',
      uncommitted: ['server/a.ts'],
      finishedAt: '2026-11-27T10:00:00.000Z',
      wallSeconds: 754,
      cores: 2,
      mutate: ['server/a.ts:1:1-1:400', 'server/b.ts'],
      inScope: 12,
    };
    const record: RunRecord = {
      commit: COMMIT,
      uncommitted: [],
      finishedAt: '2026-11-26T01:02:03.000Z',
      wallSeconds: 3125,
      cores: 2,
      resumedFrom: null,
      fromNothing: { commit: COMMIT, finishedAt: '2026-11-26T01:02:03.000Z', wallSeconds: 3125 },
      scoped: [run],
    };
    expect(describeRecord(record, 3140)).toBe(
      'commit 0123456, finished 2026-11-26, 3140 mutants from nothing (no earlier results) in 52 min 5 s of wall time on 2 cores; ' +
        'then 12 mutants of 2 file(s) (server/a.ts, server/b.ts) tested again at commit fedcba9 with uncommitted changes, finished 2026-11-27, in 12 min 34 s, their other mutants carried over where their code is unchanged',
    );
  });
});
