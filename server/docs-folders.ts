// Where the published docs are built and served from.
import { join } from 'node:path';
import { projectRoot } from './project-root.js';

/** Where `npm run docs` builds the published docs, and where the server serves them from. */
export const docsDir = join(projectRoot, 'dist', 'docs');

/** The console's folder in the docs (built by scripts/docs/console/, served at /docs/<it>/ with a policy of its own). */
export const consoleFolder = 'try';
