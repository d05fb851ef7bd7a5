// npm run test:mutation:changed -- [base-ref] [--budget-minutes <n>]: mutation testing of only the
// files that mutation testing covers and that changed since a git ref (default: the previous
// commit), working copy included, within a time budget (default 10 minutes). With the results of an
// earlier run at hand it is incremental, like npm run test:mutation.
// Exit codes: 0 the changed files meet the score targets, nothing to mutate, or the run did not fit
// in the budget (then npm run test:mutation is the check); 1 a target missed or Stryker failed;
// 2 a bad argument or an unknown ref.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { runMain } from '../../server/run-main.js';
import { parseArgsOrMessage } from '../shared/cli-args.js';
import { pathspecsOf } from './scope.js';
import { printScore } from './score.js';
import { STRYKER_BIN } from './stryker.js';

const USAGE = 'usage: npm run test:mutation:changed -- [ref] [--budget-minutes <n>]';
// npm runs scripts from the project's folder; everything here is relative to it.
const projectRoot = process.cwd();
const CHANGED_REPORT_DIR = join(projectRoot, 'reports', 'mutation-changed');
const CHANGED_TEMP_DIR = '.stryker-tmp-changed';

/**
 * Stryker's configuration for the changed files: their mutants only, with reports, incremental
 * results and sandboxes of its own, so that it neither replaces a full run's nor meets one running.
 */
export function changedRunConfig(config: Record<string, unknown>, files: string[], reportDir: string) {
  return {
    ...config,
    mutate: files,
    tempDirName: CHANGED_TEMP_DIR,
    incrementalFile: join(reportDir, 'incremental.json'),
    reporters: ['clear-text', 'progress', 'json', 'html'],
    jsonReporter: { fileName: join(reportDir, 'mutation.json') },
    htmlReporter: { fileName: join(reportDir, 'index.html') },
  };
}

const git = (args: string[]) =>
  execFileSync('git', args, { cwd: projectRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

/** The base ref and the budget, or what is wrong with the command line. */
function readCommandLine(argv: string[]): { ref: string; budgetMinutes: number } | string {
  const options = parseArgsOrMessage({
    args: argv,
    allowPositionals: true,
    options: { 'budget-minutes': { type: 'string' } },
  });
  if (typeof options === 'string') return options;
  if (options.positionals.length > 1) return 'one ref at most';
  const ref = options.positionals[0] ?? 'HEAD~1';
  const budgetText = options.values['budget-minutes'] ?? '10';
  const budgetMinutes = Number(budgetText);
  if (!(budgetMinutes > 0)) return `--budget-minutes must be a number of minutes above 0, got ${budgetText}`;
  try {
    git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    return `${JSON.stringify(ref)} is not a commit of this repository (a branch, a tag, HEAD~1...)`;
  }
  return { ref, budgetMinutes };
}

/** Stops the whole process group of a detached child: Stryker and its test runners. */
function stopGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function runStryker(configPath: string, budgetMs: number): Promise<'done' | 'failed' | 'over budget'> {
  const child = spawn(process.execPath, [STRYKER_BIN, 'run', configPath], {
    cwd: projectRoot,
    stdio: 'inherit',
    detached: true,
  });
  return new Promise((resolve) => {
    let overBudget = false;
    const timer = setTimeout(() => {
      overBudget = true;
      stopGroup(child.pid ?? 0);
    }, budgetMs);
    const stopOnSignal = () => stopGroup(child.pid ?? 0);
    process.once('SIGINT', stopOnSignal).once('SIGTERM', stopOnSignal);
    child.on('close', (code) => {
      clearTimeout(timer);
      process.off('SIGINT', stopOnSignal).off('SIGTERM', stopOnSignal);
      resolve(overBudget ? 'over budget' : code === 0 ? 'done' : 'failed');
    });
  });
}

export async function main(argv: string[]): Promise<number> {
  const line = readCommandLine(argv);
  if (typeof line === 'string') {
    console.error(`test:mutation:changed: ${line} (${USAGE})`);
    return 2;
  }
  const { ref, budgetMinutes } = line;

  const config = JSON.parse(readFileSync(join(projectRoot, 'stryker.config.json'), 'utf8')) as Record<string, unknown>;
  const files = git(['diff', '--name-only', '--diff-filter=AMR', ref, '--', ...pathspecsOf(config.mutate as string[])])
    .split('\n')
    .filter((line) => line !== '');
  if (files.length === 0) {
    console.log(`test:mutation:changed: no file that mutation testing covers changed since ${ref}.`);
    return 0;
  }
  console.log(
    `test:mutation:changed: mutating ${files.length} file(s) changed since ${ref}, within ${budgetMinutes} minutes: ${files.join(', ')}`,
  );

  rmSync(CHANGED_REPORT_DIR, { recursive: true, force: true });
  mkdirSync(CHANGED_REPORT_DIR, { recursive: true });
  const changedConfig = changedRunConfig(config, files, relative(projectRoot, CHANGED_REPORT_DIR));
  // The whole tree's incremental results, copied: this run starts from them without replacing them
  // with the results of a few files.
  const fullIncremental = join(projectRoot, String(config.incrementalFile ?? 'reports/stryker-incremental.json'));
  if (existsSync(fullIncremental)) copyFileSync(fullIncremental, join(projectRoot, changedConfig.incrementalFile));
  const configPath = join(CHANGED_REPORT_DIR, 'stryker.config.json');
  writeFileSync(configPath, JSON.stringify(changedConfig));

  const outcome = await runStryker(configPath, budgetMinutes * 60_000);
  if (outcome === 'over budget') {
    rmSync(join(projectRoot, CHANGED_TEMP_DIR), { recursive: true, force: true });
    console.log(
      `test:mutation:changed: the mutants of ${files.length} changed file(s) take longer than ${budgetMinutes} minutes; stopped. Run npm run test:mutation before submitting: it is the check for a change this size.`,
    );
    return 0;
  }
  if (outcome === 'failed') {
    console.error('test:mutation:changed: Stryker failed (its output is above).');
    return 1;
  }
  return printScore(join(projectRoot, changedConfig.jsonReporter.fileName), (path) => files.includes(path));
}

await runMain(main, import.meta.url);
