// The imports between the project's folders of code (server/, client/, scripts/, bench/, test/):
// no module reaches itself through its imports, and each folder imports only what it may:
// - server/ and client/ import nothing of test/ or bench/; client/ nothing of server/ or scripts/
//   either (it is a package of its own), and server/ of scripts/ only the runner of its CLI;
// - scripts/ and bench/ import nothing of test/: the suite tests them, they never lean on it;
// - test/ imports of bench/ only the modules the benchmark shares with the tests (BENCH_SHARED):
//   bench/shared/ (the benchmark's processes, the hostile-traffic and amplification runs) and the
//   ladder's table of rungs, which a test holds to the server's pipeline. An entry point of the
//   benchmark, or a module only it uses, can then change without a test knowing.
// Static, dynamic and type-only imports alike: a cycle through types is a knot for a reader too.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/process.js';

const FOLDERS = ['server', 'client', 'scripts', 'bench', 'test'];
/** The one module of scripts/ that server/ imports: the runner of its CLI. */
const RUNNER = 'scripts/shared/run-main.ts';
const BENCH_SHARED = (target: string) => under(target, 'bench/shared') || target === 'bench/ladder-rungs.ts';

function under(target: string, ...folders: string[]): boolean {
  return folders.some((folder) => target.startsWith(`${folder}/`));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(path);
    return /\.(ts|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `from '...'`, `import '...'` and `import('...')` of a relative path, as written. */
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"\n]+)['"]/g;

/** The project files a module imports, relative to the project; a specifier naming no file is left out. */
function importsOf(file: string): string[] {
  const targets = [...readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)].map((match) => {
    const target = resolve(dirname(file), match[1] ?? '');
    const source = target.replace(/\.js$/, '.ts');
    return existsSync(source) ? source : target;
  });
  return [...new Set(targets.filter((target) => existsSync(target)).map((target) => relative(projectRoot, target)))];
}

const graph = new Map(
  FOLDERS.flatMap((folder) => sourceFiles(join(projectRoot, folder))).map((file) => [
    relative(projectRoot, file),
    importsOf(file),
  ]),
);

/** Every cycle met by a depth-first walk, each as the path that closes it. */
function cycles(): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      found.push([...path.slice(path.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  return found;
}

/** Each import from a module under `from` that `allowed` refuses, as `importer -> imported`. */
function refused(from: string, allowed: (target: string) => boolean): string[] {
  return [...graph]
    .filter(([file]) => file.startsWith(`${from}/`))
    .flatMap(([file, targets]) => targets.filter((target) => !allowed(target)).map((target) => `${file} -> ${target}`));
}

describe('the import graph of server/, client/, scripts/, bench/ and test/', () => {
  it('is read: every folder has modules, and imports between them are seen', () => {
    for (const folder of FOLDERS)
      expect(
        [...graph.keys()].some((file) => under(file, folder)),
        folder,
      ).toBe(true);
    expect(refused('test', (target) => !under(target, 'bench'))).not.toEqual([]);
    expect(refused('bench', (target) => !under(target, 'scripts'))).not.toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles()).toEqual([]);
  });

  it('keeps server/ and client/ apart from the tooling and the tests', () => {
    expect(
      refused('server', (target) => !under(target, 'test', 'bench', 'client', 'scripts') || target === RUNNER),
    ).toEqual([]);
    expect(refused('client', (target) => !under(target, 'test', 'bench', 'server', 'scripts'))).toEqual([]);
  });

  it('has nothing in scripts/ or bench/ import from test/', () => {
    expect([
      ...refused('scripts', (target) => !under(target, 'test')),
      ...refused('bench', (target) => !under(target, 'test')),
    ]).toEqual([]);
  });

  it('has test/ import from bench/ only what the benchmark shares with the tests', () => {
    expect(refused('test', (target) => !under(target, 'bench') || BENCH_SHARED(target))).toEqual([]);
  });
});
