// The imports a module of the project writes, read from its text: enough of ECMAScript's syntax for
// this project's own code, shared by the tests that hold its import graph.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { projectRoot } from './process.js';

export interface Import {
  /** The imported file, relative to the project. */
  target: string;
  /** Erased on compiling: `import type`, `export type`, braces of `type` names only, `typeof import()`. */
  typeOnly: boolean;
  /** A literal path given to `vi.mock` or `vi.doMock`, which loads the module in the mock's place. */
  mock: boolean;
}

const STATIC = /\b(import|export)\s+(type\s+)?([\w$*{},\s]*?)\s*from\s*['"](\.{1,2}\/[^'"\n]+)['"]/g;
const SIDE_EFFECT = /\bimport\s*['"](\.{1,2}\/[^'"\n]+)['"]/g;
const DYNAMIC = /(\btypeof\s+)?\bimport\s*\(\s*['"](\.{1,2}\/[^'"\n]+)['"]\s*\)/g;
const MOCK = /\bvi\.(?:mock|doMock)\s*\(\s*['"](\.{1,2}\/[^'"\n]+)['"]/g;

/** `{ type A, type B }` with nothing else in it imports no value. */
function namesTypesOnly(clause: string): boolean {
  const braces = /^\{([^}]*)\}$/.exec(clause.trim());
  const names = (braces?.[1] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((name) => name.startsWith('type '));
}

/** The project file a relative specifier names (`.js` read as its `.ts` source), if there is one. */
function resolved(file: string, specifier: string): string | undefined {
  const target = resolve(dirname(file), specifier);
  const source = target.replace(/\.js$/, '.ts');
  if (existsSync(source)) return relative(projectRoot, source);
  return existsSync(target) ? relative(projectRoot, target) : undefined;
}

/** The project files a module (path relative to the project or absolute) imports; a specifier naming no file is left out. */
export function importsOf(file: string): Import[] {
  const path = resolve(projectRoot, file);
  const text = readFileSync(path, 'utf8');
  const found: { specifier: string; typeOnly: boolean; mock: boolean }[] = [
    ...[...text.matchAll(STATIC)].map((match) => ({
      specifier: match[4] ?? '',
      typeOnly: match[2] !== undefined || namesTypesOnly(match[3] ?? ''),
      mock: false,
    })),
    ...[...text.matchAll(SIDE_EFFECT)].map((match) => ({ specifier: match[1] ?? '', typeOnly: false, mock: false })),
    ...[...text.matchAll(DYNAMIC)].map((match) => ({
      specifier: match[2] ?? '',
      typeOnly: match[1] !== undefined,
      mock: false,
    })),
    ...[...text.matchAll(MOCK)].map((match) => ({ specifier: match[1] ?? '', typeOnly: false, mock: true })),
  ];
  return found.flatMap(({ specifier, typeOnly, mock }) => {
    const target = resolved(path, specifier);
    return target === undefined ? [] : [{ target, typeOnly, mock }];
  });
}

/** The files a module loads when it runs: its imports that are not erased, as paths relative to the project. */
export function runtimeImportsOf(file: string): string[] {
  return [
    ...new Set(
      importsOf(file)
        .filter((entry) => !entry.typeOnly)
        .map((entry) => entry.target),
    ),
  ];
}

/** `spawnEntry('server/main.ts', …)` and `runEntry(…)` (test/support/process.ts) run a module of the project as a process. */
const ENTRY_RUN = /\b(?:spawnEntry|runEntry)\(\s*['"]([^'"\n]+\.ts)['"]/g;
/** `new URL('./migrations/', import.meta.url)`: a folder whose modules are imported by name as they are found. */
const FOLDER_URL = /\bnew URL\(\s*['"](\.{1,2}\/[^'"\n]*\/)['"]\s*,\s*import\.meta\.url\s*\)/g;

/** What running a module loads besides its imports: entry points it starts, modules of folders it reads. */
function loadedOtherwise(file: string): string[] {
  const text = readFileSync(resolve(projectRoot, file), 'utf8');
  const entries = [...text.matchAll(ENTRY_RUN)]
    .map((match) => match[1] ?? '')
    .filter((entry) => existsSync(resolve(projectRoot, entry)));
  const folders = [...text.matchAll(FOLDER_URL)].flatMap((match) => {
    const folder = resolve(projectRoot, dirname(file), match[1] ?? '');
    return existsSync(folder)
      ? readdirSync(folder)
          .filter((name) => /\.(ts|mts|mjs|js)$/.test(name))
          .map((name) => relative(projectRoot, join(folder, name)))
      : [];
  });
  return [...entries, ...folders];
}

/**
 * Every project file that running `file` loads, itself left out: what it imports, the entry points
 * it starts and the folders of modules it reads, and so on through them; and last the modules of
 * types these import, which the type checker reads with them.
 */
export function reachedFrom(file: string, cache = new Map<string, Import[]>()): Set<string> {
  const importsOnce = (next: string) => {
    let found = cache.get(next);
    if (found === undefined) {
      found = /\.(ts|mts|mjs|js)$/.test(next)
        ? [...importsOf(next), ...loadedOtherwise(next).map((target) => ({ target, typeOnly: false, mock: false }))]
        : [];
      cache.set(next, found);
    }
    return found;
  };
  const reached = new Set<string>();
  const pending = [file];
  for (let next = pending.pop(); next !== undefined; next = pending.pop())
    for (const { target, typeOnly } of importsOnce(next))
      if (!typeOnly && !reached.has(target)) {
        reached.add(target);
        pending.push(target);
      }
  for (const loaded of [file, ...reached])
    for (const { target, typeOnly } of importsOnce(loaded)) if (typeOnly) reached.add(target);
  reached.delete(file);
  return reached;
}
