// What a whole mutation run mutates, and how much of it the record holds as the code stands now.
// The files are those of stryker.config.json's `mutate`, its globs read by git as pathspecs (a
// leading `!` excluding) over the files git tracks, as test:mutation:changed reads them.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MutationTestResult } from 'mutation-testing-report-schema';
import { projectRoot } from '../../server/project-root.js';

const RANGE = /^(.*?):\d+(?::\d+)?-\d+(?::\d+)?$/;

/** Stryker's `mutate` globs as git pathspecs: `!x` excludes x. */
export function pathspecsOf(mutate: string[]): string[] {
  return mutate.map((pattern) =>
    pattern.startsWith('!') ? `:(exclude,glob)${pattern.slice(1)}` : `:(glob)${pattern}`,
  );
}

/** The files git tracks that the pathspecs select. */
function filesSelected(pathspecs: string[], root: string): string[] {
  return execFileSync('git', ['ls-files', '--', ...pathspecs], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '');
}

/** The files a whole run mutates: stryker.config.json's `mutate`, over the files git tracks. */
export function wholeRunFiles(root = projectRoot): string[] {
  const { mutate } = JSON.parse(readFileSync(join(root, 'stryker.config.json'), 'utf8')) as { mutate: string[] };
  return filesSelected(pathspecsOf(mutate), root);
}

/**
 * A scoped run's patterns as the files (or lines of files) of the whole run they name: a glob
 * becomes each file of the whole run it matches, so `server/*.ts` leaves out what the whole run
 * leaves out; a file, or a file's lines, stays as given. Throws on a pattern that names no file of
 * the whole run.
 */
export function scopedPatterns(patterns: string[], wholeRun: string[], root = projectRoot): string[] {
  const inWholeRun = new Set(wholeRun);
  return patterns.flatMap((pattern) => {
    const file = pattern.replace(RANGE, '$1');
    const files = filesSelected(pathspecsOf([file]), root).filter((name) => inWholeRun.has(name));
    if (files.length === 0) throw new Error(`${pattern} names no file that a whole mutation run mutates`);
    return file === pattern ? files : files.map((name) => `${name}${pattern.slice(file.length)}`);
  });
}

/** The number of mutants Stryker makes of each file, marked (ignored) ones included; 0 for types only. */
export async function mutantCounts(files: string[], read: (file: string) => string): Promise<Map<string, number>> {
  const silent = () => false;
  const quiet = () => {};
  const logger = {
    isTraceEnabled: silent,
    isDebugEnabled: silent,
    isInfoEnabled: silent,
    isWarnEnabled: silent,
    isErrorEnabled: silent,
    isFatalEnabled: silent,
    trace: quiet,
    debug: quiet,
    info: quiet,
    warn: quiet,
    error: quiet,
    fatal: quiet,
  };
  // Loaded only here: it brings Babel and TypeScript's parser, which every other use of this module does without.
  const { Instrumenter } = await import('@stryker-mutator/instrumenter');
  const { mutants } = await new Instrumenter(logger).instrument(
    files.map((name) => ({ name, content: read(name), mutate: true })),
    { plugins: null, excludedMutations: [], ignorers: [], noHeader: false },
  );
  const counts = new Map(files.map((file) => [file, 0]));
  for (const { fileName } of mutants) counts.set(fileName, (counts.get(fileName) ?? 0) + 1);
  return counts;
}

/**
 * The mutants of each file: a file the record holds with its text now, as many as the record has;
 * any other, counted by Stryker's instrumenter (the slow part, so done for those files only).
 */
export async function treeMutantCounts(
  results: MutationTestResult,
  files: string[],
  read: (file: string) => string,
): Promise<Map<string, number>> {
  const recorded = (file: string) => results.files[file]?.source === read(file);
  const counted = await mutantCounts(
    files.filter((file) => !recorded(file)),
    read,
  );
  return new Map(
    files.map((file) => [file, recorded(file) ? (results.files[file]?.mutants.length ?? 0) : (counted.get(file) ?? 0)]),
  );
}

export interface TreeCoverage {
  /** Files whose recorded results were taken from the very text they hold now. */
  current: string[];
  /** Files in the record whose text has changed since their mutants were tested. */
  changed: string[];
  /** Files with mutants that the record does not hold at all. */
  untested: string[];
  /** Files Stryker makes no mutant of (types and numbers only). */
  withoutMutants: string[];
}

/**
 * How the record stands against the files a whole run mutates, by each file's text now (`read`,
 * as the record keeps it) and the mutants Stryker makes of it (`counts`).
 */
export function treeCoverage(
  results: MutationTestResult,
  counts: Map<string, number>,
  read: (file: string) => string,
): TreeCoverage {
  const coverage: TreeCoverage = { current: [], changed: [], untested: [], withoutMutants: [] };
  for (const [file, count] of counts) {
    const recorded = results.files[file];
    if (recorded) coverage[recorded.source === read(file) ? 'current' : 'changed'].push(file);
    else coverage[count === 0 ? 'withoutMutants' : 'untested'].push(file);
  }
  return coverage;
}
