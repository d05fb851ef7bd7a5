// The mutation score of the last `npm run test:mutation`, per folder and for each target the
// project holds itself to, from the JSON report Stryker writes; with --recorded, of the whole run
// committed in mutation/. The mutants that an entry of mutation/equivalents.md matches count as
// equivalent. Exits 1 when a target is missed, 2 when there is nothing to read or the page of
// equivalents has an entry that is not well-formed.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { MutationTestResult } from 'mutation-testing-report-schema';
import { projectRoot } from '../../server/project-root.js';
import { runMain } from '../../server/run-main.js';
import { type Equivalent, readEquivalents } from './equivalents.js';
import {
  changedSince,
  describeRecord,
  mutantCount,
  type Recorded,
  readRecorded,
  withoutMachinePaths,
} from './record.js';
import { type TreeCoverage, treeCoverage, treeMutantCounts, wholeRunFiles } from './scope.js';
import { percent, type ScoreLine, type ScoreSummary, summarize, TARGETS } from './summary.js';

export const REPORT_PATH = join(projectRoot, 'reports', 'mutation', 'mutation.json');

export function formatSummary(summary: ScoreSummary): string {
  const row = (line: ScoreLine) =>
    `${line.name.padEnd(30)} ${String(line.killed).padStart(6)} ${String(line.survived).padStart(8)} ${String(line.noCoverage).padStart(11)} ${String(line.ignored).padStart(7)} ${percent(line.score).padStart(7)}`;
  const header = `${'folder'.padEnd(30)} ${'killed'.padStart(6)} ${'survived'.padStart(8)} ${'no coverage'.padStart(11)} ${'ignored'.padStart(7)} ${'score'.padStart(7)}`;
  return [
    header,
    ...summary.folders.map(row),
    '',
    ...summary.targets.map(
      (target) =>
        `${Number.isNaN(target.score) ? 'n/a   ' : target.met ? 'met   ' : 'MISSED'} ${target.name}: ${percent(target.score)} (target ${target.minimum}%)`,
    ),
    '',
    `Equivalent mutants (${summary.ignored.length}):`,
    ...summary.ignored.map((mutant) => `  ${mutant.where} ${mutant.mutator}: ${mutant.reason}`),
    ...(summary.ignoredWithoutEntry.length === 0
      ? []
      : [
          '',
          `Ignored in the report, matched by no entry of mutation/equivalents.md (${summary.ignoredWithoutEntry.length}):`,
          ...summary.ignoredWithoutEntry.map((mutant) => `  ${mutant.where} ${mutant.mutator}: ${mutant.reason}`),
        ]),
    ...(summary.stale.length === 0
      ? []
      : [
          '',
          `Entries of mutation/equivalents.md that match no mutant left alive in the report (${summary.stale.length}): delete them, or run the mutants of their files again if the report holds older code`,
          ...summary.stale.map(
            (entry) => `  line ${entry.line}, ${entry.heading}: ${entry.file} ${entry.mutator} ${entry.code}`,
          ),
        ]),
    '',
    `Survivors (${summary.survivors.length}):`,
    ...summary.survivors.map((mutant) => `  ${mutant.where} ${mutant.mutator} -> ${mutant.replacement}`),
  ].join('\n');
}

/** The entries of mutation/equivalents.md; undefined, with what is wrong said, when one is not well-formed. */
export function equivalentsOrComplain(): Equivalent[] | undefined {
  const { entries, problems } = readEquivalents();
  if (problems.length === 0) return entries;
  console.error(['mutation/equivalents.md has entries that are not well-formed:', ...problems].join('\n  '));
  return undefined;
}

/** How much of the tree a whole run mutates the record holds as the code stands now. */
export function formatTreeCoverage(coverage: TreeCoverage, counts: Map<string, number>): string {
  const withCode = coverage.current.length + coverage.changed.length + coverage.untested.length;
  const mutants = (files: Iterable<string>) => [...files].reduce((sum, file) => sum + (counts.get(file) ?? 0), 0);
  const lines = [
    `The record against the tree: ${coverage.current.length} of the ${withCode} files a whole run mutates, with ${mutants(coverage.current)} of its ${mutants(counts.keys())} mutants, are in it as they stand now (Stryker makes no mutant of ${coverage.withoutMutants.length} more).`,
  ];
  if (coverage.changed.length > 0)
    lines.push(`Changed since their mutants were tested (${coverage.changed.length}): ${coverage.changed.join(', ')}`);
  if (coverage.untested.length > 0)
    lines.push(`Not in the record (${coverage.untested.length}): ${coverage.untested.join(', ')}`);
  if (withCode > coverage.current.length)
    lines.push(
      'The scores below are of the record only: npm run test:mutation, or test:mutation:scoped over those files, tests them.',
    );
  return lines.join('\n');
}

/** Prints the summary of a report; 0 when every target is met, 1 when one is missed, 2 without a report. */
export function printScore(reportPath: string, only?: (path: string) => boolean): number {
  let result: MutationTestResult;
  try {
    result = JSON.parse(readFileSync(reportPath, 'utf8')) as MutationTestResult;
  } catch {
    console.error(`No mutation report at ${relative(projectRoot, reportPath)}: run npm run test:mutation first.`);
    return 2;
  }
  const equivalents = equivalentsOrComplain();
  if (!equivalents) return 2;
  const summary = summarize(result, TARGETS, only, equivalents);
  console.log(formatSummary(summary));
  return summary.targets.every((target) => target.met) ? 0 : 1;
}

/** The committed whole run against the targets, with what changed since it; 2 without a record. */
export async function printRecorded(): Promise<number> {
  let recorded: Recorded;
  try {
    recorded = readRecorded();
  } catch {
    console.error('No mutation record in mutation/: run npm run test:mutation and commit mutation/.');
    return 2;
  }
  const { record, results } = recorded;
  const equivalents = equivalentsOrComplain();
  if (!equivalents) return 2;
  const summary = summarize(results, TARGETS, undefined, equivalents);
  console.log(`The whole run on record: ${describeRecord(record, mutantCount(results))}.`);
  for (const run of record.scoped ?? [])
    console.log(`Tested again at commit ${run.commit.slice(0, 7)}: ${run.mutate.join(', ')}`);
  const changed = changedSince(record.commit);
  if (changed === null)
    console.log(`Commit ${record.commit.slice(0, 7)} is not in this checkout: cannot tell what changed since.`);
  else if (changed.length > 0)
    console.log(
      `Changed since (npm run test:mutation tests their mutants again, reusing the rest): ${changed.join(', ')}`,
    );
  const texts = new Map(
    wholeRunFiles().map((file) => [file, withoutMachinePaths(readFileSync(join(projectRoot, file), 'utf8'))]),
  );
  const read = (file: string) => texts.get(file) ?? '';
  const counts = await treeMutantCounts(results, [...texts.keys()], read);
  const coverage = treeCoverage(results, counts, read);
  console.log('');
  console.log(formatTreeCoverage(coverage, counts));
  console.log('');
  console.log(formatSummary(summary));
  return summary.targets.every((target) => target.met) ? 0 : 1;
}

const USAGE = 'usage: npm run -s mutation:score [-- --recorded]';

export async function main(args: string[]): Promise<number> {
  if (args.length === 0) return printScore(REPORT_PATH);
  if (args.length === 1 && args[0] === '--recorded') return printRecorded();
  console.error(`mutation:score: unknown argument ${args.join(' ')} (${USAGE})`);
  return 2;
}

await runMain(main, import.meta.url);
