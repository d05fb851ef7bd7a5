// spec:diff on the battery of edits (battery.ts): every edit at its oasdiff level, with the rule ids
// oasdiff would name, and nothing louder; every rule id it names is in the rule table.
import { describe, expect, it } from 'vitest';
import { RULES } from '../../scripts/spec-diff/engine/rules.js';
import { BATTERY } from './battery.js';
import { runSpecDiff } from './battery-score.js';

describe('spec:diff on the battery of edits', () => {
  it('holds at least 40 edits, of every level', () => {
    expect(BATTERY.length).toBeGreaterThanOrEqual(40);
    expect(new Set(BATTERY.map((edit) => edit.level))).toEqual(new Set(['error', 'warning', 'info']));
    expect(new Set(BATTERY.map((edit) => edit.name)).size).toBe(BATTERY.length);
    expect(BATTERY.flatMap((edit) => edit.ids).filter((id) => !RULES[id])).toEqual([]);
  });

  it.each(BATTERY.map((edit) => [edit.name, edit] as const))('%s', async (_name, edit) => {
    const result = await runSpecDiff(edit);
    expect(
      { highest: result.highest, missing: edit.ids.filter((id) => !result.ids.includes(id)) },
      result.ids.join(', '),
    ).toEqual({
      highest: edit.level,
      missing: [],
    });
    expect(result.strict).toBe(true);
  });
});
