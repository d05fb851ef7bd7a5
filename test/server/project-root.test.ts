// The project's folder, found from the server's own modules, and the docs folder under it that
// `npm run docs` builds and the server serves.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsDir } from '../../server/docs-folders.js';
import { projectRoot } from '../../server/project-root.js';

describe('the project folder', () => {
  it('is the folder of package.json above the server', () => {
    expect(projectRoot).toBe(resolve(import.meta.dirname, '..', '..'));
    expect(existsSync(join(projectRoot, 'package.json'))).toBe(true);
  });

  it('holds the built docs in dist/docs', () => {
    expect(docsDir).toBe(join(projectRoot, 'dist', 'docs'));
  });
});
