// How an engine does on the battery: strictly (spec:diff: every expected rule id at its level, and
// nothing above the edit's class) and coarsely (any engine: an error edit flagged breaking, a
// warning edit flagged, a compatible edit not flagged breaking).
import { specChanges } from '../engine/compare.js';
import { LEVELS, type Level, RULES } from '../engine/rules.js';
import { BATTERY, type BatteryEdit, baseSpec } from './battery.js';
import { oasdiffLevel } from './battery-kit.js';

export interface EditResult {
  edit: BatteryEdit;
  highest: Level;
  ids: string[];
  /** The expected ids not reported, or not at their level (oasdiff's, or the override's, said in the report). */
  missing: string[];
  strict: boolean;
}

/** The two documents of an edit: the spec (with the edit's setup) before and after it. */
export function documentsOf(edit: BatteryEdit): [Record<string, unknown>, Record<string, unknown>] {
  const [before, after] = [baseSpec(), baseSpec()];
  edit.setup?.(before);
  edit.setup?.(after);
  edit.edit(after);
  return [before, after];
}

/** The level an expected id must be reported at: the override's, oasdiff's, or the project rule's. */
export const expectedLevel = (edit: BatteryEdit, id: string): Level | undefined =>
  edit.override ?? oasdiffLevel(id) ?? RULES[id]?.level;

export async function runSpecDiff(edit: BatteryEdit): Promise<EditResult> {
  const [before, after] = documentsOf(edit);
  const changes = await specChanges(before, after);
  const highest = LEVELS.find((level) => changes.some((c) => c.level === level)) ?? 'info';
  const missing = edit.ids.filter(
    (id) =>
      !changes.some(
        (c) => c.id === id && c.level === expectedLevel(edit, id) && Boolean(edit.override) === Boolean(c.override),
      ),
  );
  return {
    edit,
    highest,
    ids: [...new Set(changes.map((c) => c.id))],
    missing,
    strict: highest === edit.level && missing.length === 0,
  };
}

/** The coarse verdict from whether an engine flagged the edit breaking, or flagged it at all. */
export function coarse(edit: BatteryEdit, flaggedBreaking: boolean, flagged: boolean): boolean {
  if (edit.level === 'error') return flaggedBreaking;
  if (edit.level === 'warning') return flagged;
  return !flaggedBreaking;
}

export { BATTERY };
