// npm run test:mutation [-- <Stryker options>]: the whole mutation run, resumed from the committed
// record where the code and its tests have not changed (mutation/incremental.json, Stryker's
// incremental file). A run that finishes writes the record (mutation/record.json: commit, date, wall
// time) and the status block of notes/mutation-testing.md, then prints the score; commit mutation/
// and that page with it.
// Exit codes: Stryker's when it fails, else 0 when every target is met and 1 when one is missed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { MutationTestResult } from 'mutation-testing-report-schema';
import { runMain } from '../../server/run-main.js';
import { readEquivalents } from './equivalents.js';
import {
  currentCommit,
  mutantCount,
  RECORD_FILE,
  RECORDED_RESULTS,
  type RunRecord,
  STATUS_PAGE,
  statusBlock,
  uncommittedFiles,
  withStatusBlock,
  writeRecord,
  writeRecordedResults,
} from './record.js';
import { printScore, REPORT_PATH } from './score.js';
import { runStryker } from './stryker.js';
import { summarize, TARGETS } from './summary.js';

function previousRecord(): RunRecord | null {
  if (!existsSync(RECORDED_RESULTS) || !existsSync(RECORD_FILE)) return null;
  return JSON.parse(readFileSync(RECORD_FILE, 'utf8')) as RunRecord;
}

export async function main(args: string[]): Promise<number> {
  const previous = args.includes('--force') ? null : previousRecord();
  const commit = currentCommit();
  const uncommitted = uncommittedFiles();
  const started = performance.now();
  const code = await runStryker(args);
  if (code !== 0) return code;
  const finishedAt = new Date().toISOString();
  const wallSeconds = Math.round((performance.now() - started) / 1000);
  const record: RunRecord = {
    commit,
    uncommitted,
    finishedAt,
    wallSeconds,
    cores: availableParallelism(),
    resumedFrom: previous?.commit ?? null,
    fromNothing: previous?.fromNothing ?? { commit, finishedAt, wallSeconds },
  };
  writeRecord(record);
  const results = JSON.parse(readFileSync(RECORDED_RESULTS, 'utf8')) as MutationTestResult;
  writeRecordedResults(results);
  const block = statusBlock(
    record,
    summarize(results, TARGETS, undefined, readEquivalents().entries),
    mutantCount(results),
  );
  writeFileSync(STATUS_PAGE, withStatusBlock(readFileSync(STATUS_PAGE, 'utf8'), block));
  console.log(
    'test:mutation: the record (mutation/) and the status in notes/mutation-testing.md are written; commit them.',
  );
  return printScore(REPORT_PATH);
}

await runMain(main, import.meta.url);
