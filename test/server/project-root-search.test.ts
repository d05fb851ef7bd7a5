// The server finds the project's folder as its modules load, from wherever they are: the nearest
// folder above them that holds package.json. Loaded inside the test, so that a module that cannot
// find it fails this test rather than the loading of a test file.
import { existsSync } from 'node:fs';
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
