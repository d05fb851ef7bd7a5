// The one convention of the entry points of scripts/, bench/ and the CLI (CONTRIBUTING, "Layout"):
// `main(argv)` returns the exit code, nothing in the file calls process.exit, and its last line
// hands main to runMain (server/run-main.ts, tested in test/server/run-main.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
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
