// A git repository of its own for the tests of spec:diff and spec:changelog: a first commit
// without the contract, then this project's openapi.yaml; each script runs there as a person runs
// it in theirs.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectOutput, type Finished } from '../../scripts/shared/child-process.js';
import { projectRoot } from '../support/process.js';

export interface ScratchRepo {
  dir: string;
  git(...args: string[]): void;
  /** Writes openapi.yaml as this project has it, edited; commits it when a message is given. */
  writeSpec(edit?: (text: string) => string, commitMessage?: string): void;
  /** Runs scripts/<script>.ts there. */
  run(script: string, args: string[]): Promise<Finished>;
}

export function scratchRepo(): ScratchRepo {
  const dir = mkdtempSync(join(tmpdir(), 'spec-repo-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('config', 'user.email', 'ci@example.com');
  git('config', 'user.name', 'CI');
  writeFileSync(join(dir, 'README.md'), 'before the contract\n');
  git('add', '.');
  git('commit', '-qm', 'no contract yet');
  copyFileSync(join(projectRoot, 'openapi.yaml'), join(dir, 'openapi.yaml'));
  git('add', '.');
  git('commit', '-qm', 'the contract');
  return {
    dir,
    git,
    writeSpec(edit, commitMessage) {
      const original = readFileSync(join(projectRoot, 'openapi.yaml'), 'utf8');
      writeFileSync(join(dir, 'openapi.yaml'), edit ? edit(original) : original);
      if (commitMessage) git('commit', '-qam', commitMessage);
    },
    run(script, args) {
      const child = spawn(
        process.execPath,
        ['--import', import.meta.resolve('tsx'), join(projectRoot, 'scripts', `${script}.ts`), ...args],
        { cwd: dir },
      );
      return collectOutput(child);
    },
  };
}
