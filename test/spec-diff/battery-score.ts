// How an engine does on the battery: strictly (spec:diff: every expected rule id at its level, and
// nothing above the edit's class) and coarsely (any engine: an error edit flagged breaking, a
// warning edit flagged, a compatible edit not flagged breaking).
import { specChanges } from '../../scripts/spec-diff/engine/compare.js';
import { LEVELS, type Level, RULES } from '../../scripts/spec-diff/engine/rules.js';
import { BATTERY, type BatteryEdit, baseSpec } from './battery.js';

export interface EditResult {
  edit: BatteryEdit;
  highest: Level;
  ids: string[];
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

export async function runSpecDiff(edit: BatteryEdit): Promise<EditResult> {
  const [before, after] = documentsOf(edit);
  const changes = await specChanges(before, after);
  const highest = LEVELS.find((level) => changes.some((c) => c.level === level)) ?? 'info';
  const strict =
    highest === edit.level && edit.ids.every((id) => changes.some((c) => c.id === id && c.level === RULES[id]?.level));
  return { edit, highest, ids: [...new Set(changes.map((c) => c.id))], strict };
}

/** The coarse verdict from whether an engine flagged the edit breaking, or flagged it at all. */
export function coarse(edit: BatteryEdit, flaggedBreaking: boolean, flagged: boolean): boolean {
  if (edit.level === 'error') return flaggedBreaking;
  if (edit.level === 'warning') return flagged;
  return !flaggedBreaking;
}

export { BATTERY };
