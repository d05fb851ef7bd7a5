// The one convention of the entry points of scripts/, bench/ and the CLI (CONTRIBUTING, "Layout"):
// `main(argv)` returns the exit code, nothing in the file calls process.exit, and its last line
// hands main to runMain (server/run-main.ts), which runs it only when the file is the
// process's entry and says an error nothing caught in one line, never a stack trace.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { collectOutput } from '../../scripts/shared/child-process.js';
import { isEntryPoint, unexpectedErrorLine } from '../../server/run-main.js';
import { projectRoot } from '../support/process.js';

const RUN_MAIN_LINE = 'await runMain(main, import.meta.url);';

/** The TypeScript files of scripts/, bench/ and server/ that an npm script runs. */
function entryPoints(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const files = Object.values(scripts).flatMap((line) =>
    [...line.matchAll(/\btsx ((?:scripts|bench|server)\/\S+\.ts)\b/g)].map((match) => match[1] ?? ''),
  );
  return [...new Set(files)].sort();
}

describe('the entry points of scripts/, bench/ and the CLI', () => {
  const entries = entryPoints();

  it('are found in package.json', () => {
    expect(entries).toEqual(expect.arrayContaining(['bench/run.ts', 'scripts/cluster.ts', 'server/cli.ts']));
  });

  it.each(entries)('%s defines main(argv), calls no process.exit and ends with runMain', (file) => {
    const source = readFileSync(join(projectRoot, file), 'utf8');
    expect(source).toMatch(/\bfunction main\(\w+: string\[\]\)/);
    expect(source).not.toMatch(/process\.exit\(/);
    expect(source.trimEnd().split('\n').at(-1)).toBe(RUN_MAIN_LINE);
  });
});

describe('the contract in server/', () => {
  const serverFiles = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? serverFiles(join(dir, entry.name))
        : entry.name.endsWith('.ts')
          ? [relative(projectRoot, join(dir, entry.name))]
          : [],
    );

  it('is read by the entry points alone, which hand it to what needs it', () => {
    const readers = serverFiles(join(projectRoot, 'server')).filter((file) =>
      /\bloadSpec\(/.test(readFileSync(join(projectRoot, file), 'utf8')),
    );
    expect(readers.sort()).toEqual(['server/cli.ts', 'server/main.ts', 'server/spec.ts']);
  });
});

describe('runMain', () => {
  const dir = mkdtempSync(join(tmpdir(), 'run-main-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
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

  it('knows its entry by the path it was started with, with or without the extension', () => {
    const url = pathToFileURL(join(projectRoot, 'server', 'run-main.ts')).href;
    expect(isEntryPoint(url, ['node', join(projectRoot, 'server', 'run-main.ts')])).toBe(true);
    expect(isEntryPoint(url, ['node', join(projectRoot, 'server', 'run-main')])).toBe(true);
    expect(isEntryPoint(url, ['node', join(projectRoot, 'scripts', 'shared', 'cli-args.ts')])).toBe(false);
    expect(isEntryPoint(url, ['node'])).toBe(false);
  });

  it('words anything thrown as one line', () => {
    expect(unexpectedErrorLine(new TypeError('x is not a function\nmore'))).toBe(
      'unexpected error: x is not a function',
    );
    expect(unexpectedErrorLine('a string')).toBe('unexpected error: a string');
    expect(unexpectedErrorLine(new RangeError(''))).toBe('unexpected error: RangeError');
  });
});
