// spec:diff on the battery of edits (battery.ts, written from oasdiff v1.28.0's rule registry):
// every edit at its class (an error edit fails the gate, a warning edit warns, an info edit
// passes), with the rule ids oasdiff would name at oasdiff's levels, and nothing louder.
import { describe, expect, it } from 'vitest';
import { BATTERY } from '../../scripts/spec-diff/battery/battery.js';
import { runSpecDiff } from '../../scripts/spec-diff/battery/battery-score.js';
import { OASDIFF_RULES } from '../../scripts/spec-diff/engine/oasdiff-rules.js';
import { RULES } from '../../scripts/spec-diff/engine/rules.js';

const oasdiffIds = new Set(BATTERY.flatMap((edit) => edit.ids).filter((id) => id in OASDIFF_RULES));

describe('spec:diff on the battery of edits', () => {
  it('holds at least 150 edits of every level, covering at least 120 of oasdiff rule ids', () => {
    expect(BATTERY.length).toBeGreaterThanOrEqual(150);
    expect(new Set(BATTERY.map((edit) => edit.level))).toEqual(new Set(['error', 'warning', 'info']));
    expect(new Set(BATTERY.map((edit) => edit.name)).size).toBe(BATTERY.length);
    expect(BATTERY.flatMap((edit) => edit.ids).filter((id) => !RULES[id])).toEqual([]);
    expect(oasdiffIds.size).toBeGreaterThanOrEqual(120);
  });

  it.each(BATTERY.map((edit) => [edit.name, edit] as const))('%s', async (_name, edit) => {
    const result = await runSpecDiff(edit);
    expect({ highest: result.highest, missing: result.missing }, result.ids.join(', ')).toEqual({
      highest: edit.level,
      missing: [],
    });
  });
});
