// What a whole mutation run mutates, and how much of it the record holds as the code stands now.
// The files are those of stryker.config.json's `mutate`, matched as Stryker matches them
// (minimatch, hidden files left out, a leading `!` excluding), over the files git tracks.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { minimatch } from 'minimatch';
import type { MutationTestResult } from 'mutation-testing-report-schema';
import { projectRoot } from '../../server/project-root.js';

const RANGE = /^(.*?):\d+(?::\d+)?-\d+(?::\d+)?$/;

/** The files of `candidates` that `patterns` take in, in Stryker's order of reading: later patterns win. */
export function matchPatterns(patterns: string[], candidates: string[]): string[] {
  const taken = new Set<string>();
  for (const pattern of patterns) {
    const excluded = pattern.startsWith('!');
    const glob = (excluded ? pattern.slice(1) : pattern).replace(RANGE, '$1');
    for (const file of candidates)
      if (minimatch(file, glob, { dot: false })) {
        if (excluded) taken.delete(file);
        else taken.add(file);
      }
  }
  return candidates.filter((file) => taken.has(file));
}

/** The patterns of a whole run, from stryker.config.json. */
export function wholeRunPatterns(root = projectRoot): string[] {
  return (JSON.parse(readFileSync(join(root, 'stryker.config.json'), 'utf8')) as { mutate: string[] }).mutate;
}

export function trackedFiles(root = projectRoot): string[] {
  return execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '');
}

/**
 * A scoped run's patterns as the files (or lines of files) of the whole run they name: a glob
 * becomes each file of the whole run it matches, so `server/*.ts` leaves out what the whole run
 * leaves out; a file, or a file's lines, stays as given. Throws on a pattern that names no file of
 * the whole run.
 */
export function scopedPatterns(patterns: string[], wholeRun: string[]): string[] {
  return patterns.flatMap((pattern) => {
    const file = pattern.replace(RANGE, '$1');
    const files = matchPatterns([file], wholeRun);
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
