// The summary of a report in plain sentences, and the counts by level it gives.
import type { Level } from '../engine/rules.js';
import { type Entry, isDeprecation } from './entries.js';

/** Findings or entries, by level. */
export function countByLevel(items: { level: Level }[]): Record<Level, number> {
  return {
    error: items.filter((e) => e.level === 'error').length,
    warning: items.filter((e) => e.level === 'warning').length,
    info: items.filter((e) => e.level === 'info').length,
  };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The summary in plain sentences: counts by level, where the breaking changes are, the deprecations. */
export function summaryText(entries: Entry[], findings: number): string {
  if (entries.length === 0) return 'No change.';
  const { error, warning, info } = countByLevel(entries);
  const sentences = [
    `${plural(entries.length, 'change', 'changes')}: ${error} ${error === 1 ? 'breaks' : 'break'} existing clients (error), ${warning} may break them (warning) and ${info} ${info === 1 ? 'does' : 'do'} not (info).`,
  ];
  const breaking = entries.filter((e) => e.level === 'error');
  if (breaking.length > 0) {
    const where = new Map<string, number>();
    for (const entry of breaking) {
      const heading =
        entry.operations.length === 1
          ? `\`${entry.operations[0]}\``
          : entry.operations.length > 1
            ? 'several operations at once'
            : 'the document as a whole';
      where.set(heading, (where.get(heading) ?? 0) + 1);
    }
    sentences.push(`The breaking changes are in ${[...where].map(([w, n]) => `${w} (${n})`).join(', ')}.`);
  }
  const deprecations = entries.filter(isDeprecation).length;
  if (deprecations > 0)
    sentences.push(`${plural(deprecations, 'change deprecates or sunsets', 'changes deprecate or sunset')} something.`);
  if (findings !== entries.length)
    sentences.push(`They fold ${findings} findings of spec:diff, which its JSON format lists one by one.`);
  return sentences.join(' ');
}
