// The Node.js versions the project says it supports, and the ones CI proves: package.json's
// engines, the versions .ci/run pins and what it runs on each, and the README agree.
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { sqliteDriverFor } from '../../server/store/sqlite-connection.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const packageJson = JSON.parse(read('package.json')) as { engines: { node: string }; scripts: Record<string, string> };
const engines = packageJson.engines.node;
const ciRun = read('.ci/run');
const readme = read('README.md');
const oneLine = (text: string) => text.replace(/\s+/g, ' ');
const readmeSection = oneLine(/^## Node\.js versions\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '');
const quickStart = oneLine(/^## Quick start\n([\s\S]*?)^```/m.exec(readme)?.[1] ?? '');

/** Node.js 26 is the active LTS line (since October 2026): CI runs the whole suite on it. */
const ACTIVE_LTS = 26;
/** The line of the machine CI runs on, which .ci/run uses as it finds it: 20, past its end of life. */
const MACHINE_LINE = 20;

/** The lines engines admits, by major version. */
const admittedLines = Array.from({ length: 40 }, (_, major) => major).filter((major) =>
  semver.intersects(engines, `${major}.x`),
);

/** The version .ci/run pins for each line it takes from the registry: `node26_version=26.12.1`. */
const pins = new Map(
  [...ciRun.matchAll(/^node(\d+)_version=(\S+)$/gm)].map(([, line, version]) => [Number(line), version ?? '']),
);
const pinOf = (line: number) => pins.get(line) ?? '';

/** The command .ci/run runs on each pinned line: `with_node "$node26_version" npm test`. */
const runs = new Map(
  [...ciRun.matchAll(/^with_node "\$node(\d+)_version" (.+)$/gm)].map(([, line, command]) => [Number(line), command]),
);

/** The lines of .ci/run that are commands, not comments. */
const commandLines = ciRun.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));

describe('the Node.js versions', () => {
  it('admitted are the LTS lines 20 (past its end of life), 22, 24 and 26, and nothing between or after them', () => {
    expect(admittedLines).toEqual([20, 22, 24, 26]);
    for (const version of ['20.19.0', '22.12.0', '24.0.0', '26.0.0', '26.12.1'])
      expect(semver.satisfies(version, engines), version).toBe(true);
    for (const version of [
      '18.20.0',
      '20.18.0',
      '21.7.0',
      '22.11.0',
      '23.11.0',
      '25.0.0',
      '25.9.0',
      '27.0.0',
      '28.0.0',
    ])
      expect(semver.satisfies(version, engines), version).toBe(false);
  });

  it('that CI pins are each a version of its own line, admitted by engines, and with the machine’s cover every admitted line', () => {
    expect(pins.size, '.ci/run pins node<line>_version').toBeGreaterThan(0);
    for (const [line, version] of pins) {
      expect(semver.valid(version), `node${line}_version=${version}`).not.toBeNull();
      expect(semver.major(version), `node${line}_version=${version}`).toBe(line);
      expect(semver.satisfies(version, engines), version).toBe(true);
    }
    expect([...pins.keys(), MACHINE_LINE].sort((a, b) => a - b)).toEqual(admittedLines);
    expect(semver.satisfies(process.versions.node, engines)).toBe(true);
  });

  it('run the whole suite once, on the active LTS line, and the quick suites on every other line', () => {
    expect(ACTIVE_LTS).toBe(Math.max(...admittedLines));
    expect([...runs.keys()].sort((a, b) => a - b)).toEqual([...pins.keys()].sort((a, b) => a - b));
    for (const [line, command] of runs)
      expect(command, `on Node.js ${line}`).toBe(line === ACTIVE_LTS ? 'npm test' : 'npm run test:quick');
    // The machine's Node.js runs the quick suites at the top level of the script, not in with_node.
    expect(commandLines).toContain('npm run test:quick');
    expect(commandLines.filter((line) => /(^|\s)npm test$/.test(line))).toEqual([
      `with_node "$node${ACTIVE_LTS}_version" npm test`,
    ]);
    // The quick suites hold at least the SQLite store and the server suites.
    expect(packageJson.scripts['test:quick']).toMatch(/--project sqlite\b/);
    for (const folder of ['test/store', 'test/server']) expect(packageJson.scripts['test:quick']).toContain(folder);
  });

  it('have a SQLite driver each, better-sqlite3 only where it does not crash', () => {
    expect(sqliteDriverFor(semver.minVersion(engines)?.version ?? '')).toBe('better-sqlite3');
    expect(sqliteDriverFor(pinOf(22))).toBe('better-sqlite3');
    expect(sqliteDriverFor(pinOf(24))).toBe('node:sqlite');
    expect(sqliteDriverFor(pinOf(ACTIVE_LTS))).toBe('node:sqlite');
  });

  it('are said in the README as engines admits them and CI proves them', () => {
    expect(readmeSection).toContain('`engines` admits Node.js 20.19+, 22.12+, 24 and 26.');
    expect(readmeSection).toContain(
      `whole suite (\`npm test\`) once, on Node.js ${pinOf(ACTIVE_LTS)}, the active LTS line`,
    );
    for (const version of pins.values()) expect(readmeSection).toContain(`Node.js ${version}`);
    expect(readmeSection).toContain(`the machine's Node.js ${MACHINE_LINE},`);
    expect(readmeSection).toMatch(new RegExp(`Node ${MACHINE_LINE} reached its end of life`));
    expect(quickStart).toContain('with Node.js 26, 24 or 22.12+ (20.19+ too, past its end of life;');
  });
});
