// The server's modules import downwards only, and no import cycle exists: a newcomer can read a
// layer knowing only the ones below it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/process.js';

const serverDir = join(projectRoot, 'server');

/** Highest first; a module may import its own layer or any below. */
const LAYERS: [string, RegExp][] = [
  [
    'entries',
    /^(main|cli|run-main|shutdown|failure|config|config-values|dev-key-file|secrets-key|secrets-check|configured-store|storeless-context)\.ts$/,
  ],
  ['composition', /^(app|request-pipeline)\.ts$/],
  ['operations', /^operations\//],
  [
    'http, validation, rate limits, logs, metrics, tracing and provisioning',
    /^(http|validation|rate-limit|logging|metrics|telemetry|provisioning)\//,
  ],
  ['store', /^store\//],
  ['domain and the regex analysis', /^(domain|regex)\//],
  ['contract, places and the configuration error', /^(spec|project-root|docs-folders|config-error)\.ts$/],
];

function layerOf(file: string): number {
  const index = LAYERS.findIndex(([, pattern]) => pattern.test(file));
  if (index < 0) throw new Error(`server/${file} belongs to no layer: add it to LAYERS`);
  return index;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The server modules a module imports, statically or dynamically, as paths below server/. */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers = [...source.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)\.js'/g)].map((match) => match[1] ?? '');
  return specifiers
    .map((specifier) => resolve(dirname(file), `${specifier}.ts`))
    .filter((target) => target.startsWith(`${serverDir}/`))
    .map((target) => relative(serverDir, target));
}

const graph = new Map(sourceFiles(serverDir).map((file) => [relative(serverDir, file), importsOf(file)]));

describe('layers of server/', () => {
  it('has every module in a layer', () => {
    // The imports are read: a pattern that matched none would let any arrow through.
    expect([...graph.values()].flat().length).toBeGreaterThan(graph.size);
    for (const file of graph.keys()) expect(() => layerOf(file)).not.toThrow();
  });

  it('imports downwards only', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => layerOf(target) < layerOf(file))
        .map((target) => `${file} (${LAYERS[layerOf(file)]?.[0]}) imports ${target} (${LAYERS[layerOf(target)]?.[0]})`),
    );
    expect(upward, upward.join('\n')).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'visiting');
      for (const target of graph.get(file) ?? []) visit(target, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles, cycles.join('\n')).toEqual([]);
  });
});
