// `npm run spec:diff -- <ref>` as a person runs it: exit 0 when nothing breaks, 2 with one line
// when it cannot compare.
import { describe, expect, it } from 'vitest';
import { runEntry } from '../support/process.js';

describe('spec:diff', () => {
  it('compares with a commit and exits 0 when nothing changed', async () => {
    const { code, stdout } = await runEntry('scripts/spec-diff/index.ts', ['HEAD'], {});
    expect(code).toBe(0);
    expect(stdout).toMatch(/^spec:diff HEAD \(\S+\) -> working copy \(\S+\): \d+ change\(s\)/m);
  });

  it('exits 2 with one line for a ref that is no commit', async () => {
    const { code, stdout, stderr } = await runEntry('scripts/spec-diff/index.ts', ['no-such-ref'], {});
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([
      'spec:diff: "no-such-ref" is not a commit of this repository (a branch, a tag, HEAD~1...)',
    ]);
  });
});
