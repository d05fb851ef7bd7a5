// config.ts reads and checks the environment only: the files of the development keys are
// dev-key-file.ts's, so that reading the configuration is free of side effects to follow.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const source = (file: string) => readFileSync(new URL(`../../server/${file}`, import.meta.url), 'utf8');
const builtIns = (file: string) =>
  [...source(file).matchAll(/(?:from|import\()\s*'(?:node:)?([\w/]+)'/g)].map((match) => match[1]);

describe('server/config.ts', () => {
  it('imports no file-system module', () => {
    // The pattern reads imports: it finds the file-system module where it is imported.
    expect(builtIns('dev-key-file.ts')).toContain('fs');
    const fileSystem = builtIns('config.ts').filter((name) => name === 'fs' || name?.startsWith('fs/'));
    expect(fileSystem, `server/config.ts imports ${fileSystem.join(', ')}`).toEqual([]);
  });
});
