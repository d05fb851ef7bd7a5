// The whole mutation run on record: Stryker's complete results (mutation/incremental.json, from
// which the next `npm run test:mutation` resumes) and what the results alone do not say
// (mutation/record.json: the commit, the date, the wall time). The status in
// notes/mutation-testing.md is a block written from both, and a test checks that it still is.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MutationTestResult } from 'mutation-testing-report-schema';
import { projectRoot } from '../../server/project-root.js';
import { percent, type ScoreSummary } from './summary.js';

export const RECORD_DIR = join(projectRoot, 'mutation');
export const RECORDED_RESULTS = join(RECORD_DIR, 'incremental.json');
export const RECORD_FILE = join(RECORD_DIR, 'record.json');
/** The page of mutation testing, which holds the status block. */
export const STATUS_PAGE = join(projectRoot, 'notes', 'mutation-testing.md');

/**
 * Writes Stryker's results as the record keeps them: without the folder the run happened in
 * (Stryker notes it as `projectRoot` and in the checker's messages), which is the machine's, not
 * the project's. Stryker reads neither back when it resumes.
 */
export function writeRecordedResults(results: MutationTestResult): void {
  writeFileSync(RECORDED_RESULTS, recordedResultsText(results, projectRoot));
}

/**
 * The results as JSON text, with the folder `root` left out and the temporary folder (`tmp`) that
 * killed mutants' messages name written `<tmp>` (writeRecordedResults).
 */
export function recordedResultsText(results: MutationTestResult, root: string, tmp: string = tmpdir()): string {
  const { projectRoot: _where, ...kept } = results as MutationTestResult & { projectRoot?: string };
  return `${withoutMachinePaths(JSON.stringify(kept, null, 2), root, tmp)}\n`;
}

/** A text as the record keeps it: the folder `root` left out, the temporary folder `tmp` written `<tmp>`. */
export function withoutMachinePaths(text: string, root = projectRoot, tmp: string = tmpdir()): string {
  return text.split(`${root}/`).join('').split(`${tmp}/`).join('<tmp>/');
}

export interface RunRecord {
  /** The commit the run started from. */
  commit: string;
  /** Files the run saw that differed from that commit (git status), none for a clean checkout. */
  uncommitted: string[];
  finishedAt: string;
  wallSeconds: number;
  cores: number;
  /** The commit of the record the run resumed from, null for a run from nothing. */
  resumedFrom: string | null;
  /** The last run from nothing, which every later run resumed from: this one when resumedFrom is null. */
  fromNothing: { commit: string; finishedAt: string; wallSeconds: number };
  /** Runs of some files or lines since, oldest first, whose results replaced the run's for those files. */
  scoped?: ScopedRun[];
}

/**
 * A run of the mutants of some files, or of some lines of them, merged into the record: each of its
 * files takes the results Stryker wrote for it (those lines tested again, the rest of the file carried
 * over from the record by Stryker's incremental diff where its code is unchanged); every other file
 * keeps the record's.
 */
export interface ScopedRun {
  commit: string;
  uncommitted: string[];
  finishedAt: string;
  wallSeconds: number;
  cores: number;
  /** Stryker's `mutate` of the run: files, or lines of files (`path:line:column-line:column`). */
  mutate: string[];
  /** Its mutants in those patterns: tested, or taken from the record where nothing they depend on changed. */
  inScope: number;
}

export interface Recorded {
  record: RunRecord;
  results: MutationTestResult;
}

export function readRecorded(dir = RECORD_DIR): Recorded {
  return {
    record: JSON.parse(readFileSync(join(dir, 'record.json'), 'utf8')) as RunRecord,
    results: JSON.parse(readFileSync(join(dir, 'incremental.json'), 'utf8')) as MutationTestResult,
  };
}

export function writeRecord(record: RunRecord, file = RECORD_FILE): void {
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
}

const git = (args: string[], cwd = projectRoot) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

export function currentCommit(): string {
  return git(['rev-parse', 'HEAD']);
}

/** What a mutation run depends on: what it mutates, the tests, their configuration. */
const RUN_INPUTS = ['server', 'client/*.ts', 'test', 'stryker.config.json', 'vitest.mutation.config.ts'];

/**
 * The tracked files a run depends on (RUN_INPUTS) that differ from HEAD, staged or not, by their
 * paths in the checkout at `cwd`: the record itself, written by the runs, is none of them.
 */
export function uncommittedFiles(cwd = projectRoot): string[] {
  return git(['diff', '--name-only', 'HEAD', '--', ...RUN_INPUTS], cwd)
    .split('\n')
    .filter((line) => line !== '');
}

/** The files a run depends on (RUN_INPUTS) that changed since the recorded commit; null when that commit is not in this checkout. */
export function changedSince(commit: string): string[] | null {
  try {
    git(['cat-file', '-e', `${commit}^{commit}`]);
  } catch {
    return null;
  }
  return git(['diff', '--name-only', commit, '--', ...RUN_INPUTS])
    .split('\n')
    .filter((line) => line !== '');
}

export function formatDuration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  return minutes === 0 ? `${rest} s` : `${minutes} min ${rest} s`;
}

export function describeRecord(record: RunRecord, mutants: number): string {
  const edits = record.uncommitted.length === 0 ? '' : ` with uncommitted changes to ${record.uncommitted.join(', ')}`;
  const run = `commit ${record.commit.slice(0, 7)}${edits}, finished ${record.finishedAt.slice(0, 10)}, ${mutants} mutants`;
  const time = `${formatDuration(record.wallSeconds)} of wall time on ${record.cores} cores`;
  const first = record.fromNothing;
  const whole = record.resumedFrom
    ? `${run} resumed from the record of ${record.resumedFrom.slice(0, 7)} in ${time}; the last run from nothing, at commit ${first.commit.slice(0, 7)}, took ${formatDuration(first.wallSeconds)}`
    : `${run} from nothing (no earlier results) in ${time}`;
  return [whole, ...(record.scoped ?? []).map(describeScopedRun)].join('; ');
}

function describeScopedRun(run: ScopedRun): string {
  const edits = run.uncommitted.length === 0 ? '' : ' with uncommitted changes';
  const files = scopedFiles(run.mutate);
  return `then ${run.inScope} mutants of ${files.length} file(s) (${files.join(', ')}) tested again at commit ${run.commit.slice(0, 7)}${edits}, finished ${run.finishedAt.slice(0, 10)}, in ${formatDuration(run.wallSeconds)}, their other mutants carried over where their code is unchanged`;
}

/** The files of a `mutate` list: its patterns without their line ranges. */
export function scopedFiles(mutate: string[]): string[] {
  return [...new Set(mutate.map((pattern) => pattern.replace(/:\d+(?::\d+)?-\d+(?::\d+)?$/, '')))];
}

/**
 * The record's results with the files of a scoped run replaced by that run's results for them, and
 * without the files `exists` says are gone (by default those no longer in the tree). Test ids are
 * the record's: a test the scoped run names is found in the record by its file and name, or added
 * to it.
 */
export function withScopedResults(
  whole: MutationTestResult,
  scoped: MutationTestResult,
  files: string[],
  exists: (file: string) => boolean = (file) => existsSync(join(projectRoot, file)),
): MutationTestResult {
  const testFiles = structuredClone(whole.testFiles ?? {});
  let nextId =
    Math.max(-1, ...Object.values(testFiles).flatMap((file) => file.tests.map((test) => Number(test.id)))) + 1;
  const idOf = new Map<string, string>();
  for (const [file, tests] of Object.entries(testFiles))
    for (const test of tests.tests) idOf.set(`${file}#${test.name}`, test.id);
  const wholeId = new Map<string, string>();
  for (const [file, tests] of Object.entries(scoped.testFiles ?? {}))
    for (const test of tests.tests) {
      const key = `${file}#${test.name}`;
      let id = idOf.get(key);
      if (id === undefined) {
        id = String(nextId++);
        idOf.set(key, id);
        testFiles[file] ??= { tests: [] };
        testFiles[file].tests.push({ ...test, id });
      }
      wholeId.set(test.id, id);
    }
  const toWhole = (ids: string[] | undefined) => ids?.map((id) => wholeId.get(id) ?? id);
  // Stryker reports no file it found nothing to mutate in (types and constants only): such a file
  // has no mutants now, and leaves the record.
  const withResults = files.filter((file) => scoped.files[file] !== undefined);
  const replaced = Object.fromEntries(
    withResults.map((file) => {
      const result = scoped.files[file] as MutationTestResult['files'][string];
      const mutants = result.mutants.map((mutant) => ({
        ...mutant,
        ...(mutant.coveredBy && { coveredBy: toWhole(mutant.coveredBy) }),
        ...(mutant.killedBy && { killedBy: toWhole(mutant.killedBy) }),
      }));
      return [file, { ...result, mutants }];
    }),
  );
  const kept = Object.fromEntries(
    Object.entries(whole.files).filter(([file]) => exists(file) && (!files.includes(file) || file in replaced)),
  );
  return { ...whole, files: { ...kept, ...replaced }, testFiles };
}

export function mutantCount(results: MutationTestResult): number {
  return Object.values(results.files).reduce((sum, file) => sum + file.mutants.length, 0);
}

export const STATUS_START = '<!-- mutation-record: written by npm run test:mutation, checked by npm test -->';
export const STATUS_END = '<!-- /mutation-record -->';

/** The status block: the recorded run, its scores per folder and against each target. */
export function statusBlock(record: RunRecord, summary: ScoreSummary, mutants: number): string {
  const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [
    STATUS_START,
    `The whole run on record: ${describeRecord(record, mutants)}.`,
    '',
    row(['folder', 'killed', 'survived', 'no coverage', 'equivalent (ignored)', 'score']),
    row(['---', '---:', '---:', '---:', '---:', '---:']),
    ...summary.folders.map((line) =>
      row([`\`${line.name}\``, line.killed, line.survived, line.noCoverage, line.ignored, percent(line.score)]),
    ),
    '',
    row(['target', 'score', 'minimum', '']),
    row(['---', '---:', '---:', '---']),
    ...summary.targets.map((target) =>
      row([target.name, percent(target.score), `${target.minimum}%`, target.met ? 'met' : 'missed']),
    ),
    '',
    `${summary.survivors.length} survivor(s), and ${summary.ignored.length} equivalent mutant(s) answered in mutation/equivalents.md: \`npm run -s mutation:score -- --recorded\` lists them all.`,
    STATUS_END,
  ].join('\n');
}

/** The page with its block replaced; throws when the page has no block to replace. */
export function withStatusBlock(page: string, block: string): string {
  const start = page.indexOf(STATUS_START);
  const end = page.indexOf(STATUS_END);
  if (start < 0 || end < start)
    throw new Error(`notes/mutation-testing.md has no ${STATUS_START} ... ${STATUS_END} block`);
  return `${page.slice(0, start)}${block}${page.slice(end + STATUS_END.length)}`;
}
