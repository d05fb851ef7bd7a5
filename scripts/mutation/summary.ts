// The mutation score of a Stryker report, per folder and for each target the project holds itself
// to, with its equivalent mutants and survivors: what mutation:score prints and the status block of
// notes/mutation-testing.md is written from. The entries of mutation/equivalents.md, when given,
// answer the mutants they match (equivalents.ts).
import { dirname, join, relative } from 'node:path';
import { calculateMetrics } from 'mutation-testing-metrics';
import type { FileResult, MutantResult, MutationTestResult } from 'mutation-testing-report-schema';
import { projectRoot } from '../../server/project-root.js';
import { type Equivalent, withEquivalents } from './equivalents.js';

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
    files: (path) => ['server/http/auth.ts', 'server/http/errors.ts', 'server/rate-limit/rate-limit.ts'].includes(path),
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
  /** Mutants ignored in the report that no entry of mutation/equivalents.md matches (when entries are given). */
  ignoredWithoutEntry: { where: string; mutator: string; reason: string }[];
  /** Entries of mutation/equivalents.md, of the files scored, that match no mutant left alive there. */
  stale: Equivalent[];
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

/**
 * `only`: the files to score (all of the report by default); a target with nothing to score is met.
 * `equivalents`: the entries of mutation/equivalents.md, whose mutants count as equivalent.
 */
export function summarize(
  result: MutationTestResult,
  targets: ScoreTarget[] = TARGETS,
  only: (path: string) => boolean = () => true,
  equivalents?: Equivalent[],
): ScoreSummary {
  const scored = pick(relativeFiles(result), only);
  const matched = equivalents ? withEquivalents(scored, equivalents) : undefined;
  const files = matched?.files ?? scored;
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
    ignoredWithoutEntry: (matched?.unmatchedIgnored ?? []).map(({ file, mutant }) => ({
      where: where(file, mutant),
      mutator: mutant.mutatorName,
      reason: mutant.statusReason ?? '',
    })),
    stale: matched?.stale ?? [],
  };
}

/** A score as a percentage with one decimal, `n/a` when nothing could be scored. */
export const percent = (score: number) => (Number.isNaN(score) ? 'n/a' : `${score.toFixed(1)}%`);
