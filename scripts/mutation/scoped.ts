// npm run test:mutation:scoped -- <mutate pattern>... [--concurrency <n>]: the mutants of some files
// (a glob takes the files of the whole run it matches), or of some lines of them (Stryker's
// `path:line:column-line:column`), tested again and merged into
// the record: each of those files takes this run's results (the lines tested again, the rest of the
// file carried over by Stryker's incremental diff where its code is unchanged), every other file
// keeps the record's, and
// mutation/record.json lists the run under `scoped` (commit, date, wall time, patterns), which the
// status block of notes/mutation-testing.md then says. For answering a few survivors without a
// whole run; `npm run test:mutation` remains the run of everything.
// Exit codes: 0 every target met, 1 a target missed or Stryker failed, 2 a bad argument.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import type { MutationTestResult } from 'mutation-testing-report-schema';
import { projectRoot } from '../../server/project-root.js';
import { runMain } from '../../server/run-main.js';
import { parseArgsOrMessage } from '../shared/cli-args.js';
import { readEquivalents } from './equivalents.js';
import {
  currentCommit,
  mutantCount,
  RECORDED_RESULTS,
  readRecorded,
  type ScopedRun,
  STATUS_PAGE,
  scopedFiles,
  statusBlock,
  uncommittedFiles,
  withScopedResults,
  withStatusBlock,
  writeRecord,
  writeRecordedResults,
} from './record.js';
import { scopedPatterns, wholeRunFiles } from './scope.js';
import { printScore } from './score.js';
import { runStryker } from './stryker.js';
import { summarize, TARGETS } from './summary.js';

const USAGE = 'usage: npm run test:mutation:scoped -- <mutate pattern>... [--concurrency <n>] [--force]';
const SCOPED_DIR = join(projectRoot, 'reports', 'mutation-scoped');

/** The record with a scoped run's results merged in, written to mutation/ and the status block. */
export function mergeIntoRecord(scopedResults: MutationTestResult, run: ScopedRun): void {
  const { record, results } = readRecorded();
  // A file a whole run no longer mutates (removed, moved, or left out of `mutate`) leaves the record.
  const mutated = new Set(wholeRunFiles());
  const merged = withScopedResults(results, scopedResults, scopedFiles(run.mutate), (file) => mutated.has(file));
  writeRecordedResults(merged);
  const next = { ...record, scoped: [...(record.scoped ?? []), run] };
  writeRecord(next);
  const block = statusBlock(
    next,
    summarize(merged, TARGETS, undefined, readEquivalents().entries),
    mutantCount(merged),
  );
  writeFileSync(STATUS_PAGE, withStatusBlock(readFileSync(STATUS_PAGE, 'utf8'), block));
}

export async function main(args: string[]): Promise<number> {
  const options = parseArgsOrMessage({
    args,
    allowPositionals: true,
    options: { concurrency: { type: 'string' }, force: { type: 'boolean' } },
  });
  if (typeof options === 'string' || options.positionals.length === 0) {
    console.error(`test:mutation:scoped: ${typeof options === 'string' ? options : 'no pattern to mutate'} (${USAGE})`);
    return 2;
  }
  let mutate: string[];
  try {
    mutate = scopedPatterns(options.positionals, wholeRunFiles());
  } catch (error) {
    console.error(`test:mutation:scoped: ${(error as Error).message} (${USAGE})`);
    return 2;
  }
  const config = JSON.parse(readFileSync(join(projectRoot, 'stryker.config.json'), 'utf8')) as Record<string, unknown>;
  rmSync(SCOPED_DIR, { recursive: true, force: true });
  mkdirSync(SCOPED_DIR, { recursive: true });
  const incrementalFile = join(SCOPED_DIR, 'incremental.json');
  // Stryker starts from a copy of the record, so that the record changes only by the merge below.
  copyFileSync(RECORDED_RESULTS, incrementalFile);
  const configPath = join(SCOPED_DIR, 'stryker.config.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      ...config,
      mutate,
      ...(options.values.concurrency && { concurrency: Number(options.values.concurrency) }),
      // The record keeps no test's code, so a test changed in body only looks unchanged: --force tests
      // every mutant of the files again rather than carry over those whose code is unchanged.
      ...(options.values.force && { force: true }),
      tempDirName: '.stryker-tmp-scoped',
      incrementalFile: relative(projectRoot, incrementalFile),
      reporters: ['clear-text', 'progress', 'json'],
      jsonReporter: { fileName: relative(projectRoot, join(SCOPED_DIR, 'mutation.json')) },
    }),
  );
  const commit = currentCommit();
  const uncommitted = uncommittedFiles();
  const started = performance.now();
  const code = await runStryker([configPath]);
  if (code !== 0) return 1;
  const scopedResults = JSON.parse(readFileSync(incrementalFile, 'utf8')) as MutationTestResult;
  const report = JSON.parse(readFileSync(join(SCOPED_DIR, 'mutation.json'), 'utf8')) as MutationTestResult;
  mergeIntoRecord(scopedResults, {
    commit,
    uncommitted,
    finishedAt: new Date().toISOString(),
    wallSeconds: Math.round((performance.now() - started) / 1000),
    cores: availableParallelism(),
    mutate,
    inScope: inScopeCount(report, mutate),
  });
  console.log('test:mutation:scoped: merged into the record (mutation/) and notes/mutation-testing.md; commit them.');
  return printScore(join(SCOPED_DIR, 'mutation.json'));
}

/**
 * The mutants of a Stryker report that lie in the patterns (a whole file, or its lines): those the
 * run tested, or took from the record where neither their code nor their tests changed.
 */
export function inScopeCount(report: MutationTestResult, mutate: string[]): number {
  return mutate
    .map((pattern) => {
      const range = /^(.*?):(\d+)(?::(\d+))?-(\d+)(?::(\d+))?$/.exec(pattern);
      const file = range?.[1] ?? pattern;
      const at = (line: number, column: number) => line * 100_000 + column;
      const from = range ? at(Number(range[2]), Number(range[3] ?? 0)) : 0;
      const to = range ? at(Number(range[4]), Number(range[5] ?? 99_999)) : Number.POSITIVE_INFINITY;
      return (report.files[file]?.mutants ?? []).filter(({ status, location: { start, end } }) => {
        const scoped = at(start.line, start.column) >= from && at(end.line, end.column) <= to;
        return scoped && status !== 'Ignored' && status !== 'CompileError';
      }).length;
    })
    .reduce((sum, count) => sum + count, 0);
}

await runMain(main, import.meta.url);
