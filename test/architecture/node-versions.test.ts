// The Node.js versions the project says it supports, and the ones CI proves: package.json's
// engines, the Node.js 24 that .ci/run installs, and the README's "Node.js versions" agree.
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { sqliteDriverFor } from '../../server/store/sqlite-connection.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
const ciRun = read('.ci/run');
const readmeSection = /^## Node\.js versions\n([\s\S]*?)^## /m.exec(read('README.md'))?.[1] ?? '';

/** The Node.js 24 that CI installs for its second run of the suite. */
const ciNode24 = /^node24_version=(\S+)$/m.exec(ciRun)?.[1] ?? '';

describe('the Node.js versions', () => {
  it('that CI runs are admitted by engines: the machine’s and the pinned Node.js 24', () => {
    expect(semver.valid(ciNode24), '.ci/run pins node24_version').not.toBeNull();
    expect(semver.major(ciNode24)).toBe(24);
    expect(semver.satisfies(ciNode24, engines)).toBe(true);
    expect(semver.satisfies(process.versions.node, engines)).toBe(true);
  });

  it('admitted are the three LTS lines and nothing between or after them', () => {
    for (const version of ['20.19.0', '22.12.0', '24.0.0', ciNode24])
      expect(semver.satisfies(version, engines)).toBe(true);
    for (const version of ['18.20.0', '20.18.0', '21.7.0', '22.11.0', '23.11.0', '25.0.0', '26.0.0'])
      expect(semver.satisfies(version, engines), version).toBe(false);
  });

  it('have a SQLite driver each, better-sqlite3 only where it does not crash', () => {
    expect(sqliteDriverFor(ciNode24)).toBe('node:sqlite');
    expect(sqliteDriverFor(semver.minVersion(engines)?.version ?? '')).toBe('better-sqlite3');
  });

  it('are said in the README as CI proves them', () => {
    expect(readmeSection).toContain(`Node.js ${ciNode24}`);
    expect(readmeSection).toMatch(/Node\.js 20\.19\+, 22\.12\+ and 24/);
  });
});
