// The entries of mutation/equivalents.md as the score reads them: their form, and the mutants each
// one answers, found by the code they change rather than by their line.
import type { FileResult, MutantResult, MutantStatus, MutationTestResult } from 'mutation-testing-report-schema';
import { describe, expect, it } from 'vitest';
import {
  foundIn,
  indexSource,
  matches,
  normalised,
  parseEquivalents,
  withEquivalents,
} from '../../scripts/mutation/equivalents.js';
import { formatSummary } from '../../scripts/mutation/score.js';
import { summarize, TARGETS } from '../../scripts/mutation/summary.js';

const PAGE = [
  '# Equivalent mutants',
  '',
  '### Split fallback',
  '',
  'Why the default never applies.',
  '',
  '```equivalent',
  'file: server/config.ts',
  'mutator: StringLiteral',
  "code: ''",
  "in: const [address = '', bits] = entry.split('/');",
  '',
  'file: server/config.ts',
  'mutator: ConditionalExpression',
  'code: entries.length ===',
  '  0',
  '```',
  '',
  '### One visit more',
  '',
  '```equivalent',
  'file: server/domain/storable-text.ts',
  'mutator: EqualityOperator',
  'replacement: errors.length <= max',
  'code: errors.length < max',
  '```',
].join('\n');

const SOURCE = [
  "import { x } from './x.js';",
  'export function read(entries: string[], entry: string) {',
  "  if (entries.length === 0) return '';",
  '  // an entry is an address and its bits',
  "  const [address = '', bits] = entry.split('/');",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a template literal in a module's source
  '  return `${address}${bits}`;',
  '}',
].join('\n');

/**
 * A mutant of SOURCE where `text` first stands in `within` (where it first stands by default), as
 * Stryker locates it: lines and columns from 1.
 */
function mutantOf(text: string, mutatorName: string, status: MutantStatus, within = text): MutantResult {
  const offset = SOURCE.indexOf(within) + within.indexOf(text);
  const position = (at: number) => {
    const before = SOURCE.slice(0, at).split('\n');
    return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
  };
  return {
    id: `${text}-${mutatorName}-${status}`,
    mutatorName,
    replacement: '"x"',
    status,
    location: { start: position(offset), end: position(offset + text.length) },
  };
}

const fileOf = (mutants: MutantResult[], source = SOURCE): FileResult => ({ language: 'typescript', source, mutants });

describe('the entries of mutation/equivalents.md', () => {
  it('are read from each equivalent block, with the heading they stand under as their reason', () => {
    const { entries, problems } = parseEquivalents(PAGE);
    expect(problems).toEqual([]);
    expect(entries).toEqual([
      {
        file: 'server/config.ts',
        mutator: 'StringLiteral',
        code: "''",
        in: "const [address = '', bits] = entry.split('/');",
        heading: 'Split fallback',
        anchor: 'split-fallback',
        line: 8,
      },
      {
        file: 'server/config.ts',
        mutator: 'ConditionalExpression',
        code: 'entries.length === 0',
        heading: 'Split fallback',
        anchor: 'split-fallback',
        line: 13,
      },
      {
        file: 'server/domain/storable-text.ts',
        mutator: 'EqualityOperator',
        code: 'errors.length < max',
        replacement: 'errors.length <= max',
        heading: 'One visit more',
        anchor: 'one-visit-more',
        line: 22,
      },
    ]);
  });

  it('say what makes an entry not well-formed, by its line', () => {
    const page = [
      '### A reason',
      '```equivalent',
      'file: server/a.ts',
      'mutator: StringLiteral',
      '',
      'file: server/a.ts',
      'mutator: StringLiteral',
      'code: x',
      'code: y',
      '',
      'file: server/a.ts',
      'mutant: StringLiteral',
      '',
      'file: server/a.js',
      'mutator: StringLiteral',
      'code: x',
      '',
      'file: server/a.ts',
      'mutator: stringLiteral',
      'code: x',
      '',
      'file: server/a.ts',
      'mutator: StringLiteral',
      'code: x',
      'in: y',
      '```',
      '```equivalent',
      'file: server/a.ts',
    ].join('\n');
    const { entries, problems } = parseEquivalents(page);
    expect(entries).toEqual([]);
    expect(problems).toEqual([
      'line 3: an entry without code',
      'line 9: code given twice',
      'line 12: not a field of an entry (file, mutator, code, in, replacement): mutant: StringLiteral',
      'line 14: the file is not a path of a .ts file: server/a.js',
      "line 18: the mutator is not a name of Stryker's: stringLiteral",
      'line 22: its in does not hold its code: x',
      'line 27: an equivalent block never closed',
    ]);
  });

  it('compare code with its whitespace made single spaces and its comment lines left out', () => {
    expect(normalised('  a &&\n    // why\n    b  ')).toBe('a && b');
    const [entry] = parseEquivalents(PAGE).entries;
    if (!entry) throw new Error('no entry');
    expect(foundIn(entry, SOURCE)).toBe(true);
    expect(foundIn(entry, SOURCE.replace("address = ''", "address = '0'"))).toBe(false);
  });
});

describe('an entry matches a mutant', () => {
  const [fallback, condition, visit] = parseEquivalents(PAGE).entries;
  if (!fallback || !condition || !visit) throw new Error('no entries');
  const index = indexSource(SOURCE);

  it('by its file, its mutator and the code it changes, within the text given around it', () => {
    const inPair = mutantOf("''", 'StringLiteral', 'Survived', "address = ''");
    expect(matches(fallback, 'server/config.ts', index, inPair)).toBe(true);
    // The same '' two lines before, outside the text the entry gives around its code.
    const returned = mutantOf("''", 'StringLiteral', 'Survived', "return ''");
    expect(matches(fallback, 'server/config.ts', index, returned)).toBe(false);
    expect(matches(fallback, 'server/other.ts', index, inPair)).toBe(false);
    expect(matches(fallback, 'server/config.ts', index, { ...inPair, mutatorName: 'ArrayDeclaration' })).toBe(false);
  });

  it('wherever its code has moved to in the file', () => {
    const moved = `// a line more above\n\n${SOURCE}`;
    const mutant = { ...mutantOf('entries.length === 0', 'ConditionalExpression', 'Survived') };
    mutant.location = {
      start: { ...mutant.location.start, line: mutant.location.start.line + 2 },
      end: { ...mutant.location.end, line: mutant.location.end.line + 2 },
    };
    expect(matches(condition, 'server/config.ts', indexSource(moved), mutant)).toBe(true);
    expect(matches(condition, 'server/config.ts', index, mutant)).toBe(false);
  });

  it('of its replacement only, when it names one', () => {
    const source = 'if (errors.length < max) walk();';
    const at = (replacement: string): MutantResult => ({
      id: replacement,
      mutatorName: 'EqualityOperator',
      replacement,
      status: 'Survived',
      location: { start: { line: 1, column: 5 }, end: { line: 1, column: 24 } },
    });
    const storable = 'server/domain/storable-text.ts';
    expect(matches(visit, storable, indexSource(source), at('errors.length <= max'))).toBe(true);
    expect(matches(visit, storable, indexSource(source), at('errors.length >= max'))).toBe(false);
  });
});

describe('the score with the entries', () => {
  const report = (mutants: MutantResult[]): MutationTestResult => ({
    schemaVersion: '2',
    thresholds: { high: 90, low: 85 },
    files: { 'server/config.ts': fileOf(mutants) },
  });
  const { entries } = parseEquivalents(PAGE);

  it('counts a survivor an entry matches as equivalent, with the entry as its reason', () => {
    const result = report([
      mutantOf("''", 'StringLiteral', 'Survived', "address = ''"),
      mutantOf('entries.length === 0', 'ConditionalExpression', 'NoCoverage'),
      mutantOf("''", 'StringLiteral', 'Survived', "return ''"),
      mutantOf('entry.split', 'MethodExpression', 'Killed'),
    ]);
    const summary = summarize(result, TARGETS, undefined, entries);
    expect(summary.ignored.map(({ where, reason }) => [where, reason])).toEqual([
      ['server/config.ts:5:20', 'Split fallback (mutation/equivalents.md#split-fallback)'],
      ['server/config.ts:3:7', 'Split fallback (mutation/equivalents.md#split-fallback)'],
    ]);
    expect(summary.survivors.map(({ where }) => where)).toEqual(['server/config.ts:3:36']);
    expect(summary.targets[0]?.score).toBe(50);
    expect(summarize(result).survivors).toHaveLength(3);
    expect(formatSummary(summary)).toContain(
      'server/config.ts:5:20 StringLiteral: Split fallback (mutation/equivalents.md#split-fallback)',
    );
  });

  it('answers a mutant the report holds as ignored by its code, as it did by the comment it had', () => {
    const ignored = {
      ...mutantOf("''", 'StringLiteral', 'Ignored', "address = ''"),
      statusReason: 'equivalent, see a comment',
    };
    const other = { ...mutantOf('bits', 'StringLiteral', 'Ignored', 'bits]'), statusReason: 'ignored otherwise' };
    const summary = summarize(report([ignored, other]), TARGETS, undefined, entries);
    expect(summary.ignored.map(({ reason }) => reason)).toEqual([
      'Split fallback (mutation/equivalents.md#split-fallback)',
      'ignored otherwise',
    ]);
    expect(summary.ignoredWithoutEntry).toEqual([
      { where: 'server/config.ts:5:24', mutator: 'StringLiteral', reason: 'ignored otherwise' },
    ]);
    expect(formatSummary(summary)).toContain(
      'Ignored in the report, matched by no entry of mutation/equivalents.md (1):\n  server/config.ts:5:24 StringLiteral: ignored otherwise',
    );
  });

  it('reports an entry of a file scored that matches no mutant left alive as stale, and no other', () => {
    const killed = mutantOf("''", 'StringLiteral', 'Killed', "address = ''");
    const timedOut = mutantOf('entries.length === 0', 'ConditionalExpression', 'Timeout');
    const { stale, files } = withEquivalents(report([killed, timedOut]).files, entries);
    expect(stale.map((entry) => entry.line)).toEqual([8]);
    expect(files['server/config.ts']?.mutants.map((mutant) => mutant.status)).toEqual(['Killed', 'Timeout']);
    const summary = summarize(report([killed, timedOut]), TARGETS, undefined, entries);
    expect(formatSummary(summary)).toContain("line 8, Split fallback: server/config.ts StringLiteral ''");
    expect(summarize(report([killed]), TARGETS, (path) => path !== 'server/config.ts', entries).stale).toEqual([]);
  });
});
