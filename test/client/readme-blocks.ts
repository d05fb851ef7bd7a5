// The TypeScript examples of a README, as one module in the order they are written: the root
// README's client section, or every example of the client's own README.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../support/process.js';

export function clientReadmeBlocks(file: 'README.md' | 'client/README.md'): string {
  let text = readFileSync(join(projectRoot, file), 'utf8');
  if (file === 'README.md') {
    const start = text.indexOf('## Using the typed client');
    text = text.slice(start, text.indexOf('\n## ', start + 1));
  }
  const blocks = [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
  if (blocks.length === 0) throw new Error(`${file} has no TypeScript example`);
  return blocks.join('\n');
}
