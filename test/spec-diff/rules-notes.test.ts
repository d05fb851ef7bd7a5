// The rule tables of notes/breaking-changes.md say what rules.ts says: every rule id they spell out
// exists, at the level they give it, and every rule of the project's own is explained there. And the
// rule table is oasdiff's registry: every id of it, at oasdiff's level, but for the overrides.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OASDIFF_RELEASE, OASDIFF_RULES } from '../../scripts/spec-diff/engine/oasdiff-rules.js';
import { RULES } from '../../scripts/spec-diff/engine/rules.js';
import { projectRoot } from '../support/process.js';

const notes = readFileSync(join(projectRoot, 'notes', 'breaking-changes.md'), 'utf8');
const section = notes.slice(notes.indexOf('# Breaking changes: levels and rules'));
const LEVEL = { ERR: 'error', WARN: 'warning', INFO: 'info' } as const;

describe('the rule tables of notes/breaking-changes.md', () => {
  it('are there, naming the oasdiff release', () => {
    expect(notes).toContain('# Breaking changes: levels and rules');
    expect(section).toContain("The project's own rules");
    expect(section).toContain(`oasdiff ${OASDIFF_RELEASE}`);
  });

  it('name only rules that exist', () => {
    const named = [...section.matchAll(/`([a-z]+(?:-[a-z]+)+)`/g)].map((match) => match[1] ?? '');
    const ids = named.filter((id) =>
      /^(api|new|request|response|endpoint|project|optional|required|webhook|sunset)-/.test(id),
    );
    expect(ids.length).toBeGreaterThanOrEqual(30);
    expect(ids.filter((id) => !RULES[id])).toEqual([]);
  });

  it("explain every rule of the project's own, and every override", () => {
    const explained = section.slice(section.indexOf("The project's own rules"));
    const own = Object.entries(RULES)
      .filter(([, rule]) => rule.source === 'project' || rule.oasdiffLevel)
      .map(([id]) => id);
    const missing = own.filter((id) => {
      const kind = id.replace(/^project-(request|response)-(parameter|body|property)-/, '');
      return !explained.includes(`\`${id}\``) && !explained.includes(`-${kind}\``);
    });
    expect(missing).toEqual([]);
  });
});

describe('the rule table', () => {
  it(`holds every rule of oasdiff ${OASDIFF_RELEASE}, at its level unless overridden`, () => {
    expect(Object.keys(OASDIFF_RULES)).toHaveLength(509);
    const wrong = Object.entries(OASDIFF_RULES).filter(([id, level]) => {
      const rule = RULES[id];
      return rule?.source !== 'oasdiff' || (rule.oasdiffLevel ?? rule.level) !== LEVEL[level];
    });
    expect(wrong).toEqual([]);
  });

  it('prefixes every rule of the project with project-, and gives it a reason', () => {
    const own = Object.entries(RULES).filter(([, rule]) => rule.source === 'project');
    expect(own.filter(([id, rule]) => !id.startsWith('project-') || !rule.note)).toEqual([]);
    expect(own.filter(([id]) => id.replace(/^project-/, '') in OASDIFF_RULES)).toEqual([]);
  });

  it('marks every override as louder than oasdiff, with its reason', () => {
    const rank = { error: 0, warning: 1, info: 2 };
    const overrides = Object.entries(RULES).filter(([, rule]) => rule.oasdiffLevel);
    expect(overrides.map(([id]) => id).sort()).toEqual([
      'api-global-security-added',
      'api-security-added',
      'api-security-removed',
      'api-security-scope-added',
    ]);
    for (const [, rule] of overrides) {
      expect(rank[rule.level]).toBeLessThan(rank[rule.oasdiffLevel ?? 'info']);
      expect(rule.note).toBeTruthy();
    }
  });
});
