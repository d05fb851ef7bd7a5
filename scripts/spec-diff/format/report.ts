// How spec:diff and spec:changelog print findings: text (a line each), JSON, or Markdown grouped
// by operation with the levels marked.
import type { Change } from '../engine/compare.js';
import { LEVELS, type Level } from '../engine/rules.js';

export interface Comparison {
  /** What was compared: `HEAD~1` and `working copy`, or two revisions. */
  from: { label: string; version: string };
  to: { label: string; version: string };
  changes: Change[];
}

export const FORMATS = ['text', 'json', 'markdown'] as const;
export type Format = (typeof FORMATS)[number];

const rank = (level: Level) => LEVELS.indexOf(level);
const byLevel = (a: Change, b: Change) => rank(a.level) - rank(b.level);

export function countByLevel(changes: Change[]): Record<Level, number> {
  return {
    error: changes.filter((c) => c.level === 'error').length,
    warning: changes.filter((c) => c.level === 'warning').length,
    info: changes.filter((c) => c.level === 'info').length,
  };
}

const counts = (changes: Change[]) => {
  const { error, warning, info } = countByLevel(changes);
  return `${changes.length} change(s): ${error} error(s), ${warning} warning(s), ${info} info`;
};

export function textReport({ from, to, changes }: Comparison): string {
  const lines = changes
    .toSorted(byLevel)
    .map(
      (c) =>
        `${c.level.padEnd(7)}  ${c.id}  ${c.operation ? `${c.operation}  ` : ''}${c.where === c.operation ? '' : `${c.where}: `}${c.what}`,
    );
  return [
    ...lines,
    `spec:diff ${from.label} (${from.version}) -> ${to.label} (${to.version}): ${counts(changes)}.`,
  ].join('\n');
}

export function jsonReport(comparison: Comparison): string {
  return JSON.stringify({ ...comparison, counts: countByLevel(comparison.changes) }, null, 2);
}

export const WHOLE_DOCUMENT = 'The whole document';

/** The changes by operation, in the order first met; the document's own under WHOLE_DOCUMENT. */
export function groupByOperation(changes: Change[]): Map<string, Change[]> {
  const groups = new Map<string, Change[]>();
  for (const change of changes) {
    const group = change.operation ?? WHOLE_DOCUMENT;
    groups.set(group, [...(groups.get(group) ?? []), change]);
  }
  return groups;
}

const MARK: Record<Level, string> = { error: '**error**', warning: '*warning*', info: 'info' };
const escapeCell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** Markdown grouped by operation (the document's own changes last), levels marked. */
export function markdownReport({ from, to, changes }: Comparison, heading = '##'): string {
  const ordered = [...groupByOperation(changes.toSorted(byLevel))].sort(([a], [b]) =>
    a === WHOLE_DOCUMENT ? 1 : b === WHOLE_DOCUMENT ? -1 : a.localeCompare(b),
  );
  const title = `${heading} ${to.version === from.version ? to.version : `${from.version} -> ${to.version}`} (${from.label} -> ${to.label})`;
  if (changes.length === 0) return `${title}\n\nNo change.\n`;
  const sections = ordered.map(([operation, group]) =>
    [
      `${heading}# \`${operation}\``,
      '',
      ...group.map(
        (c) =>
          `- ${MARK[c.level]} \`${c.id}\`: ${escapeCell(c.where === operation ? c.what : `${c.where}: ${c.what}`)}`,
      ),
    ].join('\n'),
  );
  return [title, '', counts(changes), '', sections.join('\n\n'), ''].join('\n');
}

export function report(format: Format, comparison: Comparison): string {
  if (format === 'json') return jsonReport(comparison);
  if (format === 'markdown') return markdownReport(comparison);
  return textReport(comparison);
}
