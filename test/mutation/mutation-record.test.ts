// The whole mutation run on record (mutation/): the status in notes/mutation-testing.md is written
// from it and still says what it says, the run meets the targets, and mutation:score --recorded prints it.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MutationTestResult } from 'mutation-testing-report-schema';
import { describe, expect, it } from 'vitest';
import { readEquivalents } from '../../scripts/mutation/equivalents.js';
import {
  describeRecord,
  mutantCount,
  RECORDED_RESULTS,
  type RunRecord,
  readRecorded,
  recordedResultsText,
  STATUS_END,
  STATUS_PAGE,
  STATUS_START,
  statusBlock,
  uncommittedFiles,
  withStatusBlock,
} from '../../scripts/mutation/record.js';
import { summarize, TARGETS } from '../../scripts/mutation/summary.js';
import { projectRoot } from '../../server/project-root.js';

const tsx = join(projectRoot, 'node_modules', '.bin', 'tsx');

const record: RunRecord = {
  commit: '0123456789abcdef0123456789abcdef01234567',
  uncommitted: [],
  finishedAt: '2026-11-26T01:02:03.000Z',
  wallSeconds: 3125,
  cores: 2,
  resumedFrom: null,
  fromNothing: {
    commit: '0123456789abcdef0123456789abcdef01234567',
    finishedAt: '2026-11-26T01:02:03.000Z',
    wallSeconds: 3125,
  },
};

describe('the record of the whole run', () => {
  it('is what notes/mutation-testing.md says: its block is the one written from mutation/', () => {
    const { record: recorded, results } = readRecorded();
    const block = statusBlock(
      recorded,
      summarize(results, TARGETS, undefined, readEquivalents().entries),
      mutantCount(results),
    );
    const page = readFileSync(STATUS_PAGE, 'utf8');
    expect(page).toContain(block);
    expect(withStatusBlock(page, block)).toBe(page);
  });

  it('meets every target', () => {
    const { results } = readRecorded();
    expect(
      summarize(results, TARGETS, undefined, readEquivalents().entries).targets.filter((target) => !target.met),
    ).toEqual([]);
  });

  it('names no folder of the machine it ran on, as written and as Stryker would leave it', () => {
    const recorded = readFileSync(RECORDED_RESULTS, 'utf8');
    expect(recorded).not.toContain(projectRoot);
    expect(recorded).not.toContain(`${tmpdir()}/`);
    const fromStryker = {
      schemaVersion: '2',
      thresholds: { high: 80, low: 60 },
      projectRoot: '/some/checkout',
      files: {
        'server/a.ts': {
          language: 'typescript',
          source: '',
          mutants: [{ id: '1', statusReason: "import('/some/checkout/server/b') in /scratch/x" }],
        },
      },
    } as unknown as MutationTestResult;
    const text = recordedResultsText(fromStryker, '/some/checkout', '/scratch');
    expect(text).not.toContain('/some/checkout');
    expect(text).toContain("import('server/b') in <tmp>/x");
  });

  it('names a commit of this repository', () => {
    const { record: recorded } = readRecorded();
    expect(() =>
      execFileSync('git', ['cat-file', '-e', `${recorded.commit}^{commit}`], { cwd: projectRoot, stdio: 'ignore' }),
    ).not.toThrow();
  });

  it('is printed against the targets by mutation:score --recorded, which exits 0', () => {
    const run = spawnSync(tsx, ['scripts/mutation/score.ts', '--recorded'], { cwd: projectRoot, encoding: 'utf8' });
    const { record: recorded } = readRecorded();
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(`The whole run on record: commit ${recorded.commit.slice(0, 7)}`);
    expect(run.stdout).toMatch(/^met +overall: \d+\.\d%/m);
    expect(run.stdout).toMatch(/^The record against the tree: \d+ of the \d+ files a whole run mutates/m);
    expect(run.status).toBe(0);
    // Counting the mutants of files the record lacks instruments them, seconds of CPU each time.
  }, 90_000);

  it('refuses an unknown argument in one line, exit 2', () => {
    const run = spawnSync(tsx, ['scripts/mutation/score.ts', '--recordd'], { cwd: projectRoot, encoding: 'utf8' });
    expect(run.stderr.trim().split('\n')).toEqual([
      'mutation:score: unknown argument --recordd (usage: npm run -s mutation:score [-- --recorded])',
    ]);
    expect(run.status).toBe(2);
  });
});

describe('the files a run saw uncommitted', () => {
  it('are named by their whole paths, the first one too, staged or not', () => {
    const dir = mkdtempSync(join(tmpdir(), 'uncommitted-'));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    mkdirSync(join(dir, 'server'));
    for (const file of ['server/a.ts', 'server/b.ts', 'server/c.ts']) writeFileSync(join(dir, file), 'one\n');
    git('add', '.');
    git('-c', 'user.email=ci@example.com', '-c', 'user.name=CI', 'commit', '-qm', 'first');
    expect(uncommittedFiles(dir)).toEqual([]);
    writeFileSync(join(dir, 'server/a.ts'), 'two\n');
    writeFileSync(join(dir, 'server/c.ts'), 'two\n');
    git('add', 'server/c.ts');
    writeFileSync(join(dir, 'untracked.ts'), 'new\n');
    expect(uncommittedFiles(dir)).toEqual(['server/a.ts', 'server/c.ts']);
  });

  it('leave out what no run depends on, such as the record the runs write', () => {
    const dir = mkdtempSync(join(tmpdir(), 'uncommitted-'));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    for (const folder of ['server', 'mutation', 'test']) mkdirSync(join(dir, folder));
    const files = ['server/a.ts', 'mutation/record.json', 'test/a.test.ts', 'vitest.mutation.config.ts'];
    for (const file of files) writeFileSync(join(dir, file), 'one\n');
    git('add', '.');
    git('-c', 'user.email=ci@example.com', '-c', 'user.name=CI', 'commit', '-qm', 'first');
    for (const file of files) writeFileSync(join(dir, file), 'two\n');
    expect(uncommittedFiles(dir)).toEqual(['server/a.ts', 'test/a.test.ts', 'vitest.mutation.config.ts']);
  });
});

describe('the words of a record', () => {
  it('say the commit, the date, the wall time, the cores and where the run started', () => {
    expect(describeRecord(record, 3140)).toBe(
      'commit 0123456, finished 2026-11-26, 3140 mutants from nothing (no earlier results) in 52 min 5 s of wall time on 2 cores',
    );
    expect(
      describeRecord(
        {
          ...record,
          commit: 'fedcba9876543210fedcba9876543210fedcba98',
          uncommitted: ['server/app.ts'],
          wallSeconds: 185,
          resumedFrom: '0123456789abcdef0123456789abcdef01234567',
        },
        3140,
      ),
    ).toBe(
      'commit fedcba9 with uncommitted changes to server/app.ts, finished 2026-11-26, 3140 mutants resumed from the record of 0123456 in 3 min 5 s of wall time on 2 cores; the last run from nothing, at commit 0123456, took 52 min 5 s',
    );
  });

  it('replace the status block only, and fail without one', () => {
    const page = `# Title\n\nbefore\n${STATUS_START}\nold\n${STATUS_END}\nafter\n`;
    expect(withStatusBlock(page, `${STATUS_START}\nnew\n${STATUS_END}`)).toBe(
      `# Title\n\nbefore\n${STATUS_START}\nnew\n${STATUS_END}\nafter\n`,
    );
    expect(() => withStatusBlock('# Title\n', 'x')).toThrow(/notes\/mutation-testing\.md has no/);
  });
});
