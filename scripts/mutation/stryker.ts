// Stryker run as a child process of a mutation script, with the terminal's signals passed on, so
// that Ctrl-C stops the run and its workers rather than leaving them behind.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../../server/project-root.js';

/** Stryker's command-line entry in this project's dependencies. */
export const STRYKER_BIN = join(projectRoot, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');

/** `stryker run <args>` from the project folder; its exit code (1 when it ends without one). */
export function runStryker(args: string[]): Promise<number> {
  const child = spawn(process.execPath, [STRYKER_BIN, 'run', ...args], { cwd: projectRoot, stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.once('SIGINT', forward).once('SIGTERM', forward);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      process.off('SIGINT', forward).off('SIGTERM', forward);
      resolve(code ?? 1);
    });
  });
}
