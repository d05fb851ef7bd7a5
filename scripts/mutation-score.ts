// The mutation score of the last `npm run test:mutation`, per folder and for each target the
// project holds itself to, from the JSON report Stryker writes; with --recorded, of the whole run
// committed in mutation/. Exits 1 when a target is missed, 2 when there is nothing to read.
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { calculateMetrics } from 'mutation-testing-metrics';
import type { FileResult, MutantResult, MutationTestResult } from 'mutation-testing-report-schema';
import { projectRoot } from '../server/project-root.js';
import { changedSince, describeRecord, mutantCount, type Recorded, readRecorded } from './mutation-record.js';

export const REPORT_PATH = join(projectRoot, 'reports', 'mutation', 'mutation.json');

export interface ScoreTarget {
  name: string;
  files: (path: string) => boolean;
  minimum: number;
}

export const TARGETS: ScoreTarget[] = [
  { name: 'overall', files: () => true, minimum: 85 },
  { name: 'server/domain', files: (path) => path.startsWith('server/domain/'), minimum: 90 },
  {
    name: 'auth, errors and rate limit',
    files: (path) => ['server/http/auth.ts', 'server/http/errors.ts', 'server/http/rate-limit.ts'].includes(path),
    minimum: 90,
  },
];

export interface ScoreLine {
  name: string;
  killed: number;
  survived: number;
  noCoverage: number;
  ignored: number;
  /** NaN when nothing there can be scored. */
  score: number;
}

export interface ScoreSummary {
  folders: ScoreLine[];
  targets: (ScoreLine & { minimum: number; met: boolean })[];
  ignored: { where: string; mutator: string; reason: string }[];
  survivors: { where: string; mutator: string; replacement: string }[];
}

function scoreOf(name: string, files: Record<string, FileResult>): ScoreLine {
  const { metrics } = calculateMetrics(files);
  return {
    name,
    killed: metrics.totalDetected,
    survived: metrics.survived,
    noCoverage: metrics.noCoverage,
    ignored: metrics.ignored,
    score: metrics.mutationScore,
  };
}

function pick(files: Record<string, FileResult>, keep: (path: string) => boolean): Record<string, FileResult> {
  return Object.fromEntries(Object.entries(files).filter(([path]) => keep(path)));
}

function where(path: string, mutant: MutantResult): string {
  return `${path}:${mutant.location.start.line}:${mutant.location.start.column}`;
}

/** Report paths relative to the project, whatever folder Stryker ran from. */
function relativeFiles(result: MutationTestResult): Record<string, FileResult> {
  return Object.fromEntries(
    Object.entries(result.files).map(([path, file]) => [
      relative(result.projectRoot ?? projectRoot, join(result.projectRoot ?? projectRoot, path)),
      file,
    ]),
  );
}

/** `only`: the files to score (all of the report by default); a target with nothing to score is met. */
export function summarize(
  result: MutationTestResult,
  targets: ScoreTarget[] = TARGETS,
  only: (path: string) => boolean = () => true,
): ScoreSummary {
  const files = pick(relativeFiles(result), only);
  const folders = [...new Set(Object.keys(files).map((path) => dirname(path)))].sort();
  const entries = Object.entries(files).sort(([a], [b]) => a.localeCompare(b));
  return {
    folders: folders.map((folder) =>
      scoreOf(
        folder,
        pick(files, (path) => dirname(path) === folder),
      ),
    ),
    targets: targets.map((target) => {
      const line = scoreOf(target.name, pick(files, target.files));
      return { ...line, minimum: target.minimum, met: Number.isNaN(line.score) || line.score >= target.minimum };
    }),
    ignored: entries.flatMap(([path, file]) =>
      file.mutants
        .filter((mutant) => mutant.status === 'Ignored')
        .map((mutant) => ({
          where: where(path, mutant),
          mutator: mutant.mutatorName,
          reason: mutant.statusReason ?? '',
        })),
    ),
    survivors: entries.flatMap(([path, file]) =>
      file.mutants
        .filter((mutant) => mutant.status === 'Survived' || mutant.status === 'NoCoverage')
        .map((mutant) => ({
          where: where(path, mutant),
          mutator: mutant.mutatorName,
          replacement: mutant.replacement ?? '',
        })),
    ),
  };
}

const percent = (score: number) => (Number.isNaN(score) ? 'n/a' : `${score.toFixed(1)}%`);

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
    `Equivalent mutants marked in the code (${summary.ignored.length}):`,
    ...summary.ignored.map((mutant) => `  ${mutant.where} ${mutant.mutator}: ${mutant.reason}`),
    '',
    `Survivors (${summary.survivors.length}):`,
    ...summary.survivors.map((mutant) => `  ${mutant.where} ${mutant.mutator} -> ${mutant.replacement}`),
  ].join('\n');
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
  const summary = summarize(result, TARGETS, only);
  console.log(formatSummary(summary));
  return summary.targets.every((target) => target.met) ? 0 : 1;
}

/** The committed whole run against the targets, with what changed since it; 2 without a record. */
export function printRecorded(): number {
  let recorded: Recorded;
  try {
    recorded = readRecorded();
  } catch {
    console.error('No mutation record in mutation/: run npm run test:mutation and commit mutation/.');
    return 2;
  }
  const { record, results } = recorded;
  const summary = summarize(results);
  console.log(`The whole run on record: ${describeRecord(record, mutantCount(results))}.`);
  const changed = changedSince(record.commit);
  if (changed === null)
    console.log(`Commit ${record.commit.slice(0, 7)} is not in this checkout: cannot tell what changed since.`);
  else if (changed.length > 0)
    console.log(
      `Changed since (npm run test:mutation tests their mutants again, reusing the rest): ${changed.join(', ')}`,
    );
  console.log('');
  console.log(formatSummary(summary));
  return summary.targets.every((target) => target.met) ? 0 : 1;
}

const USAGE = 'usage: npm run -s mutation:score [-- --recorded]';

function main(args: string[]): number {
  if (args.length === 0) return printScore(REPORT_PATH);
  if (args.length === 1 && args[0] === '--recorded') return printRecorded();
  console.error(`mutation:score: unknown argument ${args.join(' ')} (${USAGE})`);
  return 2;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
