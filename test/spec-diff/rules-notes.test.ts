// The rule tables of notes/breaking-changes.md say what spec-diff-rules.ts says: every rule id
// they spell out exists, at the level they give it, and every rule of the project's own is
// explained there.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../scripts/spec-diff/engine/rules.js';
import { projectRoot } from '../support/process.js';

const notes = readFileSync(join(projectRoot, 'notes', 'breaking-changes.md'), 'utf8');
const section = notes.slice(notes.indexOf('# Breaking changes: levels and rules'));

describe('the rule tables of notes/breaking-changes.md', () => {
  it('are there', () => {
    expect(notes).toContain('# Breaking changes: levels and rules');
    expect(section).toContain("The project's own rules");
  });

  it('name only rules that exist', () => {
    const named = [...section.matchAll(/`([a-z]+(?:-[a-z]+)+)`/g)].map((match) => match[1] ?? '');
    const ids = named.filter(
      (id) => !id.startsWith('-') && /^(api|new|request|response|endpoint|documentation)-/.test(id),
    );
    expect(ids.length).toBeGreaterThanOrEqual(30);
    expect(ids.filter((id) => !RULES[id])).toEqual([]);
  });

  it("explain every rule of the project's own", () => {
    const own = Object.entries(RULES)
      .filter(([, rule]) => rule.source === 'project')
      .map(([id]) => id);
    const explained = section.slice(section.indexOf("The project's own rules"));
    const missing = own.filter((id) => {
      const [family = id] = id.split(/-(?:changed|added|removed)$/);
      return !explained.includes(`\`${id}\``) && !explained.includes(`\`${family}-`);
    });
    expect(missing).toEqual([]);
  });
});
