// The imports between the project's folders of code (server/, client/, scripts/, bench/, test/):
// no module reaches itself through its imports, and each folder imports only what it may, with no
// exception listed:
// - server/ and client/ import nothing of test/, bench/ or scripts/; client/ nothing of server/
//   either (it is a package of its own);
// - scripts/ and bench/ import nothing of test/: the suite tests them, they never lean on it;
// - test/ imports of bench/ only bench/shared/, what the benchmark shares with the tests (its
//   processes, the hostile-traffic and amplification runs, the ladder's rungs): an entry point of
//   the benchmark, or a module only it uses, can then change without a test knowing;
// - only test/ imports the test runner, and no npm script runs a file of test/: the suite's
//   plumbing lives beside the tests, and what a developer runs lives beside the other tools.
// Static, dynamic and type-only imports alike: a cycle through types is a knot for a reader too.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf } from '../support/imports.js';
import { projectRoot } from '../support/process.js';

const FOLDERS = ['server', 'client', 'scripts', 'bench', 'test'];
/** The test runner's packages, as a module names them. */
const TEST_RUNNER = /(?:\bfrom|\bimport)\s*\(?\s*['"](?:vitest|@vitest\/[^'"]*)(?:\/[^'"]*)?['"]/;

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

/** The project files a module imports, relative to the project: type-only imports too, not a mock's path. */
function importedBy(file: string): string[] {
  return [...new Set(importsOf(file).flatMap((entry) => (entry.mock ? [] : [entry.target])))];
}

const graph = new Map(
  FOLDERS.flatMap((folder) => sourceFiles(join(projectRoot, folder))).map((file) => [
    relative(projectRoot, file),
    importedBy(file),
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
    const found = cycles();
    expect(found, found.join('\n')).toEqual([]);
  });

  it('keeps server/ and client/ apart from the tooling and the tests', () => {
    const fromServer = refused('server', (target) => !under(target, 'test', 'bench', 'client', 'scripts'));
    expect(fromServer, fromServer.join('\n')).toEqual([]);
    const fromClient = refused('client', (target) => !under(target, 'test', 'bench', 'server', 'scripts'));
    expect(fromClient, fromClient.join('\n')).toEqual([]);
  });

  it('has nothing in scripts/ or bench/ import from test/', () => {
    const fromTools = [
      ...refused('scripts', (target) => !under(target, 'test')),
      ...refused('bench', (target) => !under(target, 'test')),
    ];
    expect(fromTools, fromTools.join('\n')).toEqual([]);
  });

  it('has test/ import from bench/ only what the benchmark shares with the tests', () => {
    const fromTests = refused('test', (target) => !under(target, 'bench') || under(target, 'bench/shared'));
    expect(fromTests, fromTests.join('\n')).toEqual([]);
  });

  it('has only test/ import the test runner', () => {
    const importers = [...graph.keys()].filter(
      (file) => !under(file, 'test') && TEST_RUNNER.test(readFileSync(join(projectRoot, file), 'utf8')),
    );
    expect(importers, importers.join('\n')).toEqual([]);
    // The pattern finds what it looks for.
    expect(
      [...graph.keys()].filter(
        (file) => under(file, 'test') && TEST_RUNNER.test(readFileSync(join(projectRoot, file), 'utf8')),
      ).length,
    ).toBeGreaterThan(10);
  });

  it('has no npm script run a file of test/', () => {
    const { scripts } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const running = Object.entries(scripts)
      .filter(([, command]) => /(?:^|[\s'"=])\.?\/?test\/[^\s'"]+\.(?:ts|mts|mjs|js)\b/.test(command))
      .map(([name, command]) => `${name}: ${command}`);
    expect(running, running.join('\n')).toEqual([]);
  });
});
