// A finding of spec:diff, and the list they are recorded in: the level comes from the rule, and an
// unknown rule is a bug of this tool.
import { type Level, overrideText, RULES } from './rules.js';

export interface Change {
  id: string;
  level: Level;
  /** `GET /keys/{hash}`, or undefined for a change of the whole document. */
  operation?: string;
  where: string;
  what: string;
  /** Set where the project reports the rule louder than oasdiff: `project override: oasdiff warns`. */
  override?: string;
}

export class Findings {
  readonly changes: Change[] = [];

  /** `override`: this finding is one the project's override of the rule applies to. */
  add(id: string, operation: string | undefined, where: string, what: string, override = false): void {
    const rule = RULES[id];
    if (!rule) throw new Error(`spec:diff has no rule ${id}`);
    const overridden = rule.oasdiffLevel !== undefined && (override || rule.overrideAlways === true);
    const note = overridden ? overrideText(rule) : undefined;
    this.changes.push({
      id,
      level: overridden || !rule.oasdiffLevel ? rule.level : rule.oasdiffLevel,
      ...(operation !== undefined && { operation }),
      where,
      what: note ? `${what} (${note})` : what,
      ...(note && { override: note }),
    });
  }
}
