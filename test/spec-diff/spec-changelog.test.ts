// `npm run spec:changelog -- <from> [<to>]` in a repository of its own, and the docs' changelog page
// built from a history.
import { describe, expect, it } from 'vitest';
import { changelogPage } from '../../scripts/spec-diff/changelog-page.js';
import { scratchRepo } from './scratch-repo.js';

const repo = scratchRepo();
const removeVersionsPath = (text: string) =>
  text
    .replace('version: 2.0.0', 'version: 3.0.0')
    .replace(/\n {2}\/presets\/\{slug\}\/versions:/, '\n  /presets/{slug}/all-versions:');
repo.writeSpec(removeVersionsPath, 'Versions of a preset move');

describe('spec:changelog', () => {
  it('prints the Markdown changelog between two revisions: versions named, grouped by operation, levels marked', async () => {
    const { code, stdout, stderr } = await repo.run('spec-diff/changelog', ['HEAD~1', 'HEAD']);
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout).toMatch(/^# Changelog\n\n## 2\.0\.0 -> 3\.0\.0 \(HEAD~1 -> HEAD\)\n/);
    expect(stdout).toContain(
      '### `GET /presets/{slug}/versions`\n\n- **error** `api-path-removed-without-deprecation`',
    );
    expect(stdout).toContain('### `GET /presets/{slug}/all-versions`\n\n- info `endpoint-added`');
  });

  it('compares with the working copy when given one revision', async () => {
    const { code, stdout } = await repo.run('spec-diff/changelog', ['HEAD']);
    expect(code).toBe(0);
    expect(stdout).toContain('(HEAD -> working copy)');
    expect(stdout).toContain('No change.');
  });

  it.each([[[]], [['a', 'b', 'c']], [['--from', 'HEAD']]])('exits 2 with one line on %j', async (args) => {
    const { code, stdout, stderr } = await repo.run('spec-diff/changelog', args);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr.trim().split('\n')).toEqual([
      'spec:changelog: one or two revisions (usage: npm run spec:changelog -- <from> [<to>])',
    ]);
  });

  it('exits 2 with one line on a revision that is no commit', async () => {
    const { code, stderr } = await repo.run('spec-diff/changelog', ['nope']);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(
      'spec:changelog: "nope" is not a commit of this repository (a branch, a tag, HEAD~1...)',
    );
  });
});

describe("the docs' changelog page", () => {
  it('lists every commit of openapi.yaml, newest first, with its changes and their levels', async () => {
    const cwd = process.cwd();
    process.chdir(repo.dir);
    try {
      const { html, upTo } = await changelogPage('Keys API');
      expect(upTo).toMatch(/^[0-9a-f]{40}$/);
      const headings = [...html.matchAll(/<h2>([^<]+) <small>/g)].map((match) => match[1]);
      expect(headings).toEqual(['3.0.0', '2.0.0']);
      expect(html).toContain('<p>Versions of a preset move</p>');
      expect(html).toContain(
        '<li><span class="error">error</span> <code>api-path-removed-without-deprecation</code> path removed</li>',
      );
      expect(html).toContain('<p>The first version of the contract.</p>');
      expect(html).not.toMatch(/<(script|link|img)\b/);
    } finally {
      process.chdir(cwd);
    }
  });
});
