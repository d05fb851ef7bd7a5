// Every module of server/ has a base name no other module has, so that a name in a stack trace, a
// log line or a conversation points at one file.
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/process.js';

const serverDir = join(projectRoot, 'server');

describe('module names in server/', () => {
  it('gives each module a base name of its own', () => {
    const files = readdirSync(serverDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(100);
    const byName = new Map<string, string[]>();
    for (const file of files) byName.set(basename(file), [...(byName.get(basename(file)) ?? []), file]);
    const shared = [...byName]
      .filter(([, paths]) => paths.length > 1)
      .map(([name, paths]) => `${name}: ${paths.join(', ')}`);
    expect(shared, shared.join('\n')).toEqual([]);
  });
});
