// With tracing off the server loads no part of OpenTelemetry: its packages are imported only by the
// modules of server/telemetry/, and those reach the rest of the server only as types, through their
// settings (which import no package of OpenTelemetry), or through the one dynamic import in main.ts
// that runs when tracing is on.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/process.js';

const serverDir = join(projectRoot, 'server');
const files = readdirSync(serverDir, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file, source: readFileSync(join(serverDir, file), 'utf8') }));

/** Static imports that load a module at run time (`import type` loads nothing). */
function valueImports(source: string): string[] {
  return [...source.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'([^']+)';/gms)].map((match) => match[1] ?? '');
}

const inTelemetry = (file: string) => file.startsWith('telemetry/');

describe('tracing off', () => {
  it('has OpenTelemetry packages imported by server/telemetry/ alone, and never by its settings', () => {
    const importers = files.filter(({ source }) =>
      valueImports(source).some((target) => target.startsWith('@opentelemetry/')),
    );
    expect(importers.length).toBeGreaterThan(0);
    const astray = importers
      .map(({ file }) => file)
      .filter((file) => !inTelemetry(file) || file === 'telemetry/settings.ts');
    expect(astray, `importing OpenTelemetry: ${astray.map((file) => `server/${file}`).join('\n')}`).toEqual([]);
  });

  it('reaches server/telemetry/ from outside only by types, its settings, or main.ts when tracing is on', () => {
    const outside = files.filter(({ file }) => !inTelemetry(file));
    const loaded = outside.flatMap(({ file, source }) =>
      valueImports(source)
        .filter((target) => /\/telemetry\//.test(target) && !target.endsWith('/telemetry/settings.js'))
        .map((target) => `${relative(projectRoot, join(serverDir, file))} imports ${target}`),
    );
    expect(loaded, loaded.join('\n')).toEqual([]);
    const dynamic = outside
      .filter(({ source }) => /import\(\s*'[^']*\/telemetry\//.test(source))
      .map(({ file }) => file);
    expect(dynamic).toEqual(['main.ts']);
    expect(readFileSync(join(serverDir, 'main.ts'), 'utf8')).toMatch(
      /config\.tracing &&\s*\(await import\('\.\/telemetry\//,
    );
  });
});
