// The score the mutation run is judged by: per folder, per target, with the equivalent mutants
// (ignored, with their reasons) left out of it and the mutants no test reaches counted against it.
import type { MutantResult, MutantStatus, MutationTestResult } from 'mutation-testing-report-schema';
import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../scripts/mutation/score.js';
import { summarize, TARGETS } from '../../scripts/mutation/summary.js';

let nextId = 0;
function mutants(status: MutantStatus, count: number, statusReason?: string): MutantResult[] {
  return Array.from({ length: count }, () => {
    nextId += 1;
    return {
      id: String(nextId),
      mutatorName: 'EqualityOperator',
      replacement: '<',
      location: { start: { line: nextId, column: 3 }, end: { line: nextId, column: 9 } },
      status,
      ...(statusReason !== undefined && { statusReason }),
    };
  });
}

function report(files: Record<string, MutantResult[]>): MutationTestResult {
  return {
    schemaVersion: '2',
    thresholds: { high: 90, low: 85 },
    projectRoot: '/project',
    files: Object.fromEntries(
      Object.entries(files).map(([path, list]) => [path, { language: 'typescript', source: '', mutants: list }]),
    ),
  };
}

const example = report({
  'server/domain/masking.ts': [
    ...mutants('Killed', 8),
    ...mutants('Timeout', 1),
    ...mutants('Survived', 1),
    ...mutants('Ignored', 2, 'the same string either way'),
  ],
  'server/http/auth.ts': [...mutants('Killed', 4), ...mutants('NoCoverage', 1)],
  'client/index.ts': [...mutants('Killed', 6), ...mutants('CompileError', 3)],
});

describe('mutation score', () => {
  it('scores each folder as detected over valid mutants: ignored and compile errors out, no coverage in', () => {
    const { folders } = summarize(example);
    expect(
      folders.map(({ name, killed, survived, noCoverage, ignored, score }) => [
        name,
        killed,
        survived,
        noCoverage,
        ignored,
        score,
      ]),
    ).toEqual([
      ['client', 6, 0, 0, 0, 100],
      ['server/domain', 9, 1, 0, 2, 90],
      ['server/http', 4, 0, 1, 0, 80],
    ]);
  });

  it('meets or misses each target, 90% being enough for a 90% target', () => {
    const { targets } = summarize(example);
    expect(targets.map(({ name, score, met }) => [name, Math.round(score * 10) / 10, met])).toEqual([
      ['overall', 90.5, true],
      ['server/domain', 90, true],
      ['auth, errors and rate limit', 80, false],
    ]);
    expect(TARGETS.map((target) => target.minimum)).toEqual([85, 90, 90]);
  });

  it('lists every equivalent mutant with its reason, and every survivor, with file and line', () => {
    const summary = summarize(example);
    expect(summary.ignored).toEqual([
      { where: 'server/domain/masking.ts:11:3', mutator: 'EqualityOperator', reason: 'the same string either way' },
      { where: 'server/domain/masking.ts:12:3', mutator: 'EqualityOperator', reason: 'the same string either way' },
    ]);
    expect(summary.survivors.map((survivor) => survivor.where)).toEqual([
      'server/domain/masking.ts:10:3',
      'server/http/auth.ts:17:3',
    ]);
    const text = formatSummary(summary);
    expect(text).toContain('MISSED auth, errors and rate limit: 80.0% (target 90%)');
    expect(text).toContain('met    server/domain: 90.0% (target 90%)');
    expect(text).toContain('server/domain/masking.ts:11:3 EqualityOperator: the same string either way');
  });
});

describe('the score of some files only, as a run of a change has', () => {
  it('scores the files kept, and counts a target with nothing of its own there as not applicable', () => {
    const summary = summarize(example, TARGETS, (path) => path === 'server/http/auth.ts');
    expect(summary.folders.map((line) => [line.name, line.score])).toEqual([['server/http', 80]]);
    expect(summary.targets.map(({ name, score, met }) => [name, score, met])).toEqual([
      ['overall', 80, false],
      ['server/domain', Number.NaN, true],
      ['auth, errors and rate limit', 80, false],
    ]);
    expect(summary.survivors.map((survivor) => survivor.where)).toEqual(['server/http/auth.ts:17:3']);
    const text = formatSummary(summary);
    expect(text).toContain('n/a    server/domain: n/a (target 90%)');
    expect(text).toContain('MISSED overall: 80.0% (target 85%)');
  });
});
