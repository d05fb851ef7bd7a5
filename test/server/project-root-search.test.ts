// The server finds the project's folder as its modules load, from wherever they are: the nearest
// folder above them that holds package.json. Loaded inside the test, so that a module that cannot
// find it fails this test rather than the loading of a test file.
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

describe("the server's modules, as they load", () => {
  it('find the nearest folder above them that holds package.json, not the root of the disk', async () => {
    const { projectRoot } = await import('../../server/project-root.js');
    expect(projectRoot).toBe(resolve(import.meta.dirname, '..', '..'));
    expect(existsSync(join(projectRoot, 'package.json'))).toBe(true);
    expect(dirname(projectRoot)).not.toBe(projectRoot);
  });
});

describe('the search for the project folder', () => {
  it('starts at the folder it is given, and goes up', async () => {
    const { findProjectRoot, projectRoot } = await import('../../server/project-root.js');
    expect(findProjectRoot(projectRoot)).toBe(projectRoot);
    expect(findProjectRoot(join(projectRoot, 'server', 'http'))).toBe(projectRoot);
  });

  it('is an error naming where it started when no folder above holds package.json', async () => {
    const { findProjectRoot } = await import('../../server/project-root.js');
    const from = join(mkdtempSync(join(tmpdir(), 'no-project-')), 'deep', 'down');
    mkdirSync(from, { recursive: true });
    // The search climbs to the root of the disk: none of the folders on the way holds package.json.
    expect(() => findProjectRoot(from)).toThrow(new Error(`no package.json above ${from}`));
  });
});
