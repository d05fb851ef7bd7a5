// The mutation run of a change: which files it mutates (Stryker's own globs, read by git), and the
// one line and exit code for a bad argument, an unknown ref or nothing to mutate.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedRunConfig } from '../../scripts/mutation/changed.js';
import { pathspecsOf } from '../../scripts/mutation/scope.js';
import { collectOutput } from '../../scripts/shared/child-process.js';
import { projectRoot } from '../support/process.js';

const strykerMutate = [
  'server/**/*.ts',
  'client/*.ts',
  '!server/main.ts',
  '!server/cli.ts',
  '!server/store/postgres.ts',
  '!server/store/postgres-pool.ts',
  '!server/rate-limit/rate-limit-redis.ts',
];

function filesGitSelects(pathspecs: string[]): string[] {
  return execFileSync('git', ['ls-files', '--', ...pathspecs], { cwd: projectRoot, encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '');
}

describe('the files a mutation run of a change covers', () => {
  it('are the ones of stryker.config.json: its globs as git pathspecs, a leading ! excluding', () => {
    expect(pathspecsOf(['server/**/*.ts', '!server/main.ts'])).toEqual([
      ':(glob)server/**/*.ts',
      ':(exclude,glob)server/main.ts',
    ]);
    const selected = filesGitSelects(pathspecsOf(strykerMutate));
    expect(selected).toContain('server/app.ts');
    expect(selected).toContain('server/domain/masking.ts');
    expect(selected).toContain('client/index.ts');
    for (const excluded of ['server/main.ts', 'server/cli.ts', 'server/store/postgres.ts', 'client/package.json']) {
      expect(selected).not.toContain(excluded);
    }
    expect(selected.filter((file) => file.startsWith('test/') || file.startsWith('client/dist/'))).toEqual([]);
  });
});

describe('the Stryker configuration of a run of the changed files', () => {
  const full = JSON.parse(readFileSync(join(projectRoot, 'stryker.config.json'), 'utf8')) as Record<string, unknown>;
  const changed: Record<string, unknown> & ReturnType<typeof changedRunConfig> = changedRunConfig(
    full,
    ['server/http/auth.ts'],
    'reports/mutation-changed',
  );

  it('mutates those files only, with the rest of the full configuration', () => {
    expect(changed.mutate).toEqual(['server/http/auth.ts']);
    expect(changed.checkers).toEqual(full.checkers);
    expect(changed.coverageAnalysis).toBe('perTest');
    expect(changed.incremental).toBe(true);
  });

  it("keeps its reports, incremental results and sandboxes apart from a full run's", () => {
    expect(changed.incrementalFile).toBe('reports/mutation-changed/incremental.json');
    expect(changed.incrementalFile).not.toBe(full.incrementalFile);
    expect(changed.jsonReporter.fileName).toBe('reports/mutation-changed/mutation.json');
    expect(changed.htmlReporter.fileName).toBe('reports/mutation-changed/index.html');
    expect(changed.tempDirName).not.toBe(full.tempDirName);
    // Each run leaves the other's sandboxes out of its copy of the project.
    expect(full.ignorePatterns).toContain('.stryker-tmp*');
    expect(changed.tempDirName.startsWith('.stryker-tmp')).toBe(true);
    expect(String(full.tempDirName).startsWith('.stryker-tmp')).toBe(true);
  });
});

describe('npm run test:mutation:changed', () => {
  // This script, run in a clean clone of the last commit, as CI has: the working copy here may hold changes.
  const clone = mkdtempSync(join(tmpdir(), 'mutation-changed-'));
  beforeAll(() => {
    execFileSync('git', ['clone', '--quiet', projectRoot, clone]);
    symlinkSync(join(projectRoot, 'node_modules'), join(clone, 'node_modules'));
  });
  afterAll(() => rmSync(clone, { recursive: true, force: true }));

  const run = (args: string[]) =>
    collectOutput(
      spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'scripts', 'mutation', 'changed.ts'), ...args], {
        cwd: clone,
        env: process.env,
      }),
    );

  it('mutates nothing and passes when no covered file changed since the ref', async () => {
    const { code, stdout, stderr } = await run(['HEAD']);
    expect(stderr).toBe('');
    expect(stdout).toBe('test:mutation:changed: no file that mutation testing covers changed since HEAD.\n');
    expect(code).toBe(0);
  });

  it.each([
    [['no-such-ref'], '"no-such-ref" is not a commit of this repository (a branch, a tag, HEAD~1...)'],
    [['HEAD', 'HEAD~1'], 'one ref at most'],
    [['--budget-minutes', '0'], '--budget-minutes must be a number of minutes above 0, got 0'],
    [['--budget-minutes', 'soon'], '--budget-minutes must be a number of minutes above 0, got soon'],
    [['--fast'], "Unknown option '--fast'"],
  ])('refuses %j in one line, exit 2', async (args, why) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `test:mutation:changed: ${why} (usage: npm run test:mutation:changed -- [ref] [--budget-minutes <n>])\n`,
    );
  });
});
