// runMain (server/run-main.ts), the one way an entry point ends: it runs main only when the file is
// the process's entry, sets the exit code main returns, and says an error nothing caught in one
// line, never a stack trace. Tested in this process (process.argv set for the test) and, for what
// only a process of its own shows, as the entry of one.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { collectOutput } from '../../scripts/shared/child-process.js';
import { isEntryPoint, runMain, unexpectedErrorLine } from '../../server/run-main.js';
import { projectRoot } from '../support/process.js';

const RUN_MAIN_LINE = 'await runMain(main, import.meta.url);';
const dir = mkdtempSync(join(tmpdir(), 'run-main-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An entry file in the test's folder, and its URL as its import.meta.url would be. */
function entryFile(name: string): { path: string; url: string } {
  const path = join(dir, name);
  writeFileSync(path, 'export {};\n');
  return { path, url: pathToFileURL(path).href };
}

describe('isEntryPoint', () => {
  const url = pathToFileURL(join(projectRoot, 'server', 'run-main.ts')).href;

  it('knows its entry by the path it was started with, with or without the extension', () => {
    expect(isEntryPoint(url, ['node', join(projectRoot, 'server', 'run-main.ts')])).toBe(true);
    expect(isEntryPoint(url, ['node', join(projectRoot, 'server', 'run-main')])).toBe(true);
    const built = entryFile('built.js');
    expect(isEntryPoint(built.url, ['node', join(dir, 'built')])).toBe(true);
  });

  it('is not the entry when the process started another file, or a path that does not exist, or none', () => {
    expect(isEntryPoint(url, ['node', join(projectRoot, 'scripts', 'shared', 'cli-args.ts')])).toBe(false);
    expect(isEntryPoint(url, ['node', join(dir, 'missing.ts')])).toBe(false);
    expect(isEntryPoint(url, ['node'])).toBe(false);
  });

  it('knows its entry when it was started through a link to the file', () => {
    const target = entryFile('target.ts');
    const link = join(dir, 'link.ts');
    symlinkSync(target.path, link);
    expect(isEntryPoint(target.url, ['node', link])).toBe(true);
  });
});

describe('unexpectedErrorLine', () => {
  it('words anything thrown as one line', () => {
    expect(unexpectedErrorLine(new TypeError('x is not a function\nmore'))).toBe(
      'unexpected error: x is not a function',
    );
    expect(unexpectedErrorLine('a string')).toBe('unexpected error: a string');
    expect(unexpectedErrorLine(new RangeError(''))).toBe('unexpected error: RangeError');
    expect(unexpectedErrorLine('')).toBe('unexpected error: unknown');
  });
});

describe('runMain in this process', () => {
  const argv = process.argv;
  afterEach(() => {
    process.argv = argv;
    process.exitCode = undefined;
    vi.restoreAllMocks();
  });

  it('gives main the arguments after the script and sets the exit code it returns', async () => {
    const entry = entryFile('returns.ts');
    process.argv = ['node', entry.path, 'a', '--b'];
    const main = vi.fn(async () => 3);
    await runMain(main, entry.url);
    expect(main).toHaveBeenCalledWith(['a', '--b']);
    expect(process.exitCode).toBe(3);
  });

  it('says an error main throws in one line on stderr, exit code 1', async () => {
    const entry = entryFile('throws.ts');
    process.argv = ['node', entry.path];
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await runMain(() => {
      throw new Error('the disk is full\n    at somewhere');
    }, entry.url);
    expect(said.mock.calls).toEqual([['unexpected error: the disk is full']]);
    expect(process.exitCode).toBe(1);
  });

  it('runs nothing when the module is not the entry', async () => {
    process.argv = ['node', entryFile('other.ts').path];
    const main = vi.fn(() => 0);
    await runMain(main, entryFile('imported.ts').url);
    expect(main).not.toHaveBeenCalled();
    expect(process.exitCode).toBeUndefined();
  });
});

describe('runMain as the entry of a process', () => {
  const runner = pathToFileURL(join(projectRoot, 'server', 'run-main.ts')).href;

  /** A module whose main has `body`, after `imports`, run as the process's entry with `args`. */
  const run = (name: string, body: string, args: string[] = [], imports = '') => {
    const file = join(dir, `${name}.mts`);
    writeFileSync(
      file,
      `${imports}import { runMain } from '${runner}';\nexport function main(argv: string[]) {\n${body}\n}\n${RUN_MAIN_LINE}\n`,
    );
    return collectOutput(spawn(process.execPath, ['--import', 'tsx', file, ...args], { cwd: projectRoot }));
  };

  it('exits with what main returns, main given the arguments after the script', async () => {
    const { code, stdout, stderr } = await run('returns', 'console.log(argv.join(",")); return 3;', ['a', '--b']);
    expect({ code, stdout, stderr }).toEqual({ code: 3, stdout: 'a,--b\n', stderr: '' });
  });

  it('awaits a main that resolves later', async () => {
    const body = 'return new Promise<number>((resolve) => setTimeout(() => resolve(4), 50));';
    expect((await run('later', body)).code).toBe(4);
  });

  it('says an error main throws in one line, exit 1', async () => {
    const body = 'if (argv.length === 0) throw new Error("the disk is full\\n    at somewhere"); return 0;';
    const { code, stdout, stderr } = await run('throws', body);
    expect({ code, stdout, stderr }).toEqual({ code: 1, stdout: '', stderr: 'unexpected error: the disk is full\n' });
  });

  it('runs nothing in a module that another one imports', async () => {
    await run('imported', 'console.log("ran"); return 5;');
    const { code, stdout, stderr } = await run('importer', 'return 0;', [], "import './imported.mts';\n");
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});
