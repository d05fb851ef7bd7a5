// `npm run spec:changelog -- <from> [<to>]` in a repository of its own, and the docs' changelog page
// built from a history.
import { describe, expect, it } from 'vitest';
import { changelogPage } from '../../scripts/spec-diff/changelog-page.js';
import { loadSpec } from '../../server/spec.js';
import { scratchRepo } from './scratch-repo.js';

// The contract's version as committed, and the next major one, which a breaking change takes.
const current = loadSpec().info.version;
const next = `${Number(current.split('.')[0]) + 1}.0.0`;
const escaped = (version: string) => version.replaceAll('.', '\\.');

const repo = scratchRepo();
const removeVersionsPath = (text: string) =>
  text
    .replace(`version: ${current}`, `version: ${next}`)
    .replace(/\n {2}\/presets\/\{slug\}\/versions:/, '\n  /presets/{slug}/all-versions:');
repo.writeSpec(removeVersionsPath, 'Versions of a preset move');

describe('spec:changelog', () => {
  it('prints the Markdown changelog between two revisions: versions named, a summary, breaking changes first', async () => {
    const { code, stdout, stderr } = await repo.run('spec-diff/changelog', ['HEAD~1', 'HEAD']);
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout).toMatch(
      new RegExp(
        `^# Changelog\\n\\n## ${escaped(current)} -> ${escaped(next)} \\(HEAD~1 -> HEAD\\)\\n\\n\\d+ changes?: 1 breaks existing clients`,
      ),
    );
    expect(stdout).toContain('The breaking changes are in `GET /presets/{slug}/versions` (1).');
    expect(stdout).toContain(
      '### Breaking changes\n\n#### `GET /presets/{slug}/versions`\n\n- path removed (`api-path-removed-without-deprecation`)',
    );
    expect(stdout).toContain('#### `GET /presets/{slug}/all-versions`\n\n- operation added (`endpoint-added`)');
    expect(stdout.indexOf('### Breaking changes')).toBeLessThan(stdout.indexOf('### Other changes'));
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
  it('has one entry per info.version, newest first, dated, breaking changes first, its commits folded beneath', async () => {
    const history = scratchRepo();
    const reword = (text: string) => text.replace(/(\n {6}summary: )([^\n]+)/, '$1$2 (reworded)');
    history.writeSpec(reword, 'Reword a summary');
    history.writeSpec((text) => removeVersionsPath(reword(text)), 'Versions of a preset move');
    history.writeSpec(
      (text) => removeVersionsPath(reword(text)).replace(/(\n {8}- webhook)/, '$1\n        - honeycomb'),
      'One more destination type',
    );
    const cwd = process.cwd();
    process.chdir(history.dir);
    try {
      const { html, upTo } = await changelogPage('Keys API');
      expect(upTo).toMatch(/^[0-9a-f]{40}$/);
      const headings = [...html.matchAll(/<h2[^>]*>([^<]+) <small>(\d{4}-\d{2}-\d{2})/g)].map((match) => match[1]);
      expect(headings).toEqual([next, current]);
      const [newest = '', first = ''] = html.split(/<h2[^>]*>/).slice(1);
      expect(newest).toMatch(
        new RegExp(
          `^${escaped(next)} <small>\\d{4}-\\d{2}-\\d{2}</small></h2>\\n<p>\\d+ changes?: 1 breaks existing clients`,
        ),
      );
      expect(newest).toContain(
        '<li><span class="error">error</span> <code>GET /presets/{slug}/versions</code>: path removed <small>api-path-removed-without-deprecation</small></li>',
      );
      expect(newest.indexOf('<h3>Breaking changes</h3>')).toBeLessThan(newest.indexOf('<h3>Other changes</h3>'));
      // The commits are inside the version, folded: not headings, not descriptions of it.
      expect(newest).toMatch(
        /<details><summary>2 commit\(s\)<\/summary>[\s\S]*Versions of a preset move[\s\S]*One more destination type[\s\S]*<\/details>/,
      );
      expect(first).toContain('<p>The first version of the contract.');
      expect(first).toMatch(/<details><summary>2 commit\(s\)<\/summary>[\s\S]*the contract[\s\S]*Reword a summary/);
      expect(html).not.toMatch(/<(script|link|img)\b/);
    } finally {
      process.chdir(cwd);
    }
  });
});
