// The whole mutation run on record: Stryker's complete results (mutation/incremental.json, from
// which the next `npm run test:mutation` resumes) and what the results alone do not say
// (mutation/record.json: the commit, the date, the wall time). The status in
// notes/mutation-testing.md is a block written from both, and a test checks that it still is.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MutationTestResult } from 'mutation-testing-report-schema';
import { projectRoot } from '../server/project-root.js';
import type { ScoreSummary } from './mutation-score.js';

export const RECORD_DIR = join(projectRoot, 'mutation');
export const RECORDED_RESULTS = join(RECORD_DIR, 'incremental.json');
export const RECORD_FILE = join(RECORD_DIR, 'record.json');
/** The page of mutation testing, which holds the status block. */
export const STATUS_PAGE = join(projectRoot, 'notes', 'mutation-testing.md');

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

const git = (args: string[]) =>
  execFileSync('git', args, { cwd: projectRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

export function currentCommit(): string {
  return git(['rev-parse', 'HEAD']);
}

export function uncommittedFiles(): string[] {
  return git(['status', '--porcelain', '--untracked-files=no'])
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.slice(3));
}

/**
 * The files mutation testing depends on (what it mutates, the tests, their configuration) that
 * changed since the recorded commit; null when that commit is not in this checkout.
 */
export function changedSince(commit: string): string[] | null {
  try {
    git(['cat-file', '-e', `${commit}^{commit}`]);
  } catch {
    return null;
  }
  return git([
    'diff',
    '--name-only',
    commit,
    '--',
    'server',
    'client/*.ts',
    'test',
    'stryker.config.json',
    'vitest.mutation.config.ts',
  ])
    .split('\n')
    .filter((line) => line !== '');
}

export function formatDuration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  return minutes === 0 ? `${rest} s` : `${minutes} min ${rest} s`;
}

const percent = (score: number) => (Number.isNaN(score) ? 'n/a' : `${score.toFixed(1)}%`);

export function describeRecord(record: RunRecord, mutants: number): string {
  const edits = record.uncommitted.length === 0 ? '' : ` with uncommitted changes to ${record.uncommitted.join(', ')}`;
  const run = `commit ${record.commit.slice(0, 7)}${edits}, finished ${record.finishedAt.slice(0, 10)}, ${mutants} mutants`;
  const time = `${formatDuration(record.wallSeconds)} of wall time on ${record.cores} cores`;
  if (!record.resumedFrom) return `${run} from nothing (no earlier results) in ${time}`;
  const first = record.fromNothing;
  return `${run} resumed from the record of ${record.resumedFrom.slice(0, 7)} in ${time}; the last run from nothing, at commit ${first.commit.slice(0, 7)}, took ${formatDuration(first.wallSeconds)}`;
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
    `${summary.survivors.length} survivor(s), and ${summary.ignored.length} equivalent mutant(s) marked with their reasons: \`npm run -s mutation:score -- --recorded\` lists them all.`,
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
