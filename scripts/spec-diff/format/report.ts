// How spec:diff and spec:changelog print a comparison. All three formats show the same entries (the
// findings folded, entries.ts) after the same summary: text a line each for CI logs, Markdown under
// a heading per level and per operation, JSON with the entries and every finding in full beside them.
import type { Change } from '../engine/compare.js';
import type { Level } from '../engine/rules.js';
import { type Entry, foldChanges, sectionOf } from './entries.js';
import type { Documents } from './locate.js';
import { countByLevel, summaryText } from './summary.js';

export interface Comparison {
  /** What was compared: `HEAD~1` and `working copy`, or two revisions. */
  from: { label: string; version: string };
  to: { label: string; version: string };
  changes: Change[];
  /** The two documents, to name alternatives and shared components; without them, by position. */
  documents?: Documents;
}

export const FORMATS = ['text', 'json', 'markdown'] as const;
export type Format = (typeof FORMATS)[number];

const counts = (changes: Change[]) => {
  const { error, warning, info } = countByLevel(changes);
  return `${changes.length} change(s): ${error} error(s), ${warning} warning(s), ${info} info`;
};

/** Where an entry is, the operation first when it has one. */
export function fullWhere(entry: Entry): string {
  const operation = entry.operations.length === 1 ? `\`${entry.operations[0]}\`` : '';
  return [operation, entry.where].filter(Boolean).join(' → ');
}

const plain = (markdown: string) => markdown.replaceAll('`', '');

function textLine(entry: Entry): string {
  const where = plain(fullWhere(entry));
  return `${entry.level.padEnd(7)}  ${entry.ids.join(',')}  ${where ? `${where}: ` : ''}${plain(entry.what)}`;
}

export function textReport(comparison: Comparison): string {
  const { from, to, changes } = comparison;
  const entries = foldChanges(changes, comparison.documents);
  return [
    ...(entries.length > 0 ? [plain(summaryText(entries, changes.length))] : []),
    ...entries.map(textLine),
    `spec:diff ${from.label} (${from.version}) -> ${to.label} (${to.version}): ${counts(changes)}.`,
  ].join('\n');
}

/** The comparison in full: every finding as the engine gives it, and the entries that fold them (by index). */
export function jsonReport(comparison: Comparison): string {
  const { from, to, changes } = comparison;
  const entries = foldChanges(changes, comparison.documents);
  return JSON.stringify(
    {
      from,
      to,
      summary: plain(summaryText(entries, changes.length)),
      counts: countByLevel(changes),
      entryCounts: countByLevel(entries),
      entries: entries.map((entry) => ({ ...entry, where: plain(fullWhere(entry)), what: plain(entry.what) })),
      changes,
    },
    null,
    2,
  );
}

export const WHOLE_DOCUMENT = 'The whole document';
export const SEVERAL_OPERATIONS = 'Several operations';

/** The heading an entry goes under: its operation, several, or the whole document. */
export const headingOf = (entry: Entry) =>
  entry.operations.length === 1
    ? (entry.operations[0] as string)
    : entry.operations.length > 1
      ? SEVERAL_OPERATIONS
      : WHOLE_DOCUMENT;

export const SECTIONS: { title: string; holds: (entry: Entry) => boolean }[] = [
  { title: 'Breaking changes', holds: (e) => sectionOf(e) === 0 },
  { title: 'Deprecations and sunsets', holds: (e) => sectionOf(e) === 1 },
  { title: 'Changes that may break clients', holds: (e) => sectionOf(e) === 2 },
  { title: 'Other changes', holds: (e) => sectionOf(e) === 3 },
];

/** The entries of one section, by heading (operations in order, then several, then the whole document). */
export function byHeading(entries: Entry[]): [string, Entry[]][] {
  const groups = new Map<string, Entry[]>();
  for (const entry of entries) groups.set(headingOf(entry), [...(groups.get(headingOf(entry)) ?? []), entry]);
  const order = (heading: string) => (heading === WHOLE_DOCUMENT ? 2 : heading === SEVERAL_OPERATIONS ? 1 : 0);
  return [...groups].sort(([a], [b]) => order(a) - order(b) || a.localeCompare(b));
}

const MARK: Record<Level, string> = { error: '**error**', warning: '*warning*', info: 'info' };
const oneLine = (text: string) => text.replaceAll('\n', ' ');

function bullet(entry: Entry, marked: boolean): string {
  const ids = entry.ids.map((id) => `\`${id}\``).join(', ');
  return `- ${marked ? `${MARK[entry.level]} ` : ''}${entry.where ? `${entry.where}: ` : ''}${oneLine(entry.what)} (${ids})`;
}

/** Markdown: the summary, then a section per level (breaking first), a heading per operation. */
export function markdownReport(comparison: Comparison, heading = '##'): string {
  const { from, to, changes } = comparison;
  const title = `${heading} ${to.version === from.version ? to.version : `${from.version} -> ${to.version}`} (${from.label} -> ${to.label})`;
  if (changes.length === 0) return `${title}\n\nNo change.\n`;
  const entries = foldChanges(changes, comparison.documents);
  const sections = SECTIONS.flatMap(({ title: sectionTitle, holds }) => {
    const held = entries.filter(holds);
    if (held.length === 0) return [];
    const marked = sectionTitle === 'Deprecations and sunsets';
    return [
      `${heading}# ${sectionTitle}`,
      ...byHeading(held).map(([operation, group]) =>
        [
          `${heading}## ${operation === WHOLE_DOCUMENT || operation === SEVERAL_OPERATIONS ? operation : `\`${operation}\``}`,
          '',
          ...group.map((entry) => bullet(entry, marked)),
        ].join('\n'),
      ),
    ];
  });
  return [title, '', summaryText(entries, changes.length), '', sections.join('\n\n'), ''].join('\n');
}

export function report(format: Format, comparison: Comparison): string {
  if (format === 'json') return jsonReport(comparison);
  if (format === 'markdown') return markdownReport(comparison);
  return textReport(comparison);
}
