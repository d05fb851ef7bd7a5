// The engine's findings folded into entries a person reads, one per thing that changed: the findings of
// one property together (a restructured schema's alternatives included), a change of a shared
// component once with where it is used, the same change of several operations once, and the
// documentation of one operation or one part of the document in one entry. Every entry keeps the
// indices of the findings it folds, so that the JSON report can show both.
import type { Change } from '../engine/compare.js';
import { LEVELS, type Level } from '../engine/rules.js';
import {
  alternativesNote,
  join,
  type Located,
  pathText,
  placeText,
  propertyText,
  withinResponse,
} from './entry-text.js';
import { type Documents, locate, type Step } from './locate.js';

export interface Entry {
  level: Level;
  ids: string[];
  /** The operations it is about, in order; none for the document's own. */
  operations: string[];
  /** Where, in inline Markdown (`code` spans), without the operation when there is one operation. */
  where: string;
  what: string;
  /** The indices of the findings it folds. */
  changes: number[];
}

const rank = (level: Level) => LEVELS.indexOf(level);
const highest = (levels: Level[]) => levels.reduce((a, b) => (rank(b) < rank(a) ? b : a), 'info' as Level);
const unique = <T>(values: T[]) => [...new Set(values)];

/** Deprecating, reactivating, or a sunset date (not the removal rules named `-with-deprecation`). */
export const isDeprecation = (entry: Pick<Entry, 'ids'>) =>
  entry.ids.some((id) => /(^|-)(deprecated|reactivated)(-|$)|sunset/.test(id));
const isDocumentation = (change: Change) => change.id.endsWith('documentation-changed');

interface Draft extends Entry {
  /** The same change elsewhere folds with this one when their keys are equal. */
  key: string;
  /** What the usages list: `response 404`, `request body`. */
  place: string;
  /** Where, when the same change folds across responses: without the status. */
  sharedWhere?: string;
}

/** The findings of one operation's place and property: one entry. */
function propertyDraft(items: Located[]): Draft {
  const first = items[0] as Located;
  const what = propertyText(items) + alternativesNote(items);
  const ids = unique(items.map((item) => item.change.id));
  const path = pathText(first.keySteps);
  const place = placeText(first.location);
  const components = unique(
    items.map((item) =>
      item.location.component
        ? `${item.location.component.name}|${pathText(withoutRestructures(item.location.component.steps))}`
        : '',
    ),
  );
  const anchor = components.length === 1 && components[0] ? components[0] : undefined;
  const operation = first.change.operation;
  // The same change in responses of other statuses folds with this one.
  const response = /^response (\S+)(.*)$/.exec(first.location.place);
  const sharedWhere = response ? join([withinResponse(response[2] ?? ''), path]) : undefined;
  return {
    level: highest(items.map((item) => item.change.level)),
    ids,
    operations: operation ? [operation] : [],
    where: join([place, path]),
    what,
    changes: items.map((item) => item.index),
    place: response ? `response ${response[1]}` : place,
    ...(sharedWhere !== undefined && { sharedWhere }),
    key: JSON.stringify([anchor ?? (response ? `response *${sharedWhere}` : join([place, path])), ids, what]),
  };
}

const withoutRestructures = (steps: Step[]) => steps.filter((step) => step.kind !== 'alternative' || step.matched);

/** `GET /keys/{hash}` (responses 401, 403), `PATCH /x` (request body). */
function usages(drafts: Draft[], namePlaces: boolean): string {
  const byOperation = new Map<string, string[]>();
  for (const draft of drafts)
    for (const operation of draft.operations)
      byOperation.set(operation, [...(byOperation.get(operation) ?? []), draft.place]);
  return [...byOperation]
    .map(([operation, places]) => {
      const statuses = unique(places.filter((p) => /^response \S+$/.test(p)).map((p) => p.slice('response '.length)));
      const rest = unique(places.filter((p) => !/^response \S+$/.test(p)));
      const described = [
        ...(statuses.length > 0 ? [`response${statuses.length > 1 ? 's' : ''} ${statuses.join(', ')}`] : []),
        ...rest,
      ].filter(Boolean);
      return `\`${operation}\`${namePlaces && described.length > 0 ? ` (${described.join('; ')})` : ''}`;
    })
    .join(', ');
}

/** Drafts with the same key (a shared component's change, or the same change elsewhere) as one entry. */
function foldShared(drafts: Draft[]): Entry[] {
  const groups = new Map<string, Draft[]>();
  for (const draft of drafts) groups.set(draft.key, [...(groups.get(draft.key) ?? []), draft]);
  return [...groups.values()].map((group) => {
    const first = group[0] as Draft;
    const { key: _key, place: _place, sharedWhere, ...entry } = first;
    if (group.length === 1) return entry;
    const [anchor] = JSON.parse(first.key) as [string];
    const [component, inside] = anchor.includes('|') ? anchor.split('|') : [undefined, undefined];
    const operations = unique(group.flatMap((draft) => draft.operations));
    return {
      ...entry,
      operations,
      where: component !== undefined ? join([`\`${component}\``, inside ?? '']) : (sharedWhere ?? first.where),
      what: `${first.what}; ${component !== undefined ? 'where it is used: ' : 'in '}${usages(group, component !== undefined || sharedWhere !== undefined)}`,
      changes: group.flatMap((draft) => draft.changes),
    };
  });
}

/** The documentation findings of one operation, or of one part of the document (info, a kind of component). */
function documentationEntries(items: { index: number; change: Change }[]): Entry[] {
  const groups = new Map<string, { index: number; change: Change }[]>();
  const areaOf = ({ change }: { change: Change }) => {
    if (change.operation) return change.operation;
    const [first = '', second] = change.where.split(' ');
    return first === 'components' && second ? `components.${second}` : first;
  };
  for (const item of items) groups.set(areaOf(item), [...(groups.get(areaOf(item)) ?? []), item]);
  return [...groups].map(([area, group]) => {
    const keys = unique(group.map(({ change }) => /: (\S+)$/.exec(change.what)?.[1] ?? 'documentation'));
    const places = unique(
      group.map(({ change }) => {
        const words = change.where.split(' ').slice(0, -1);
        const inside = change.operation ? words.slice(3) : words.slice(area.startsWith('components.') ? 2 : 1);
        const path = inside
          .filter((word, i) => word !== 'properties' && word !== 'content' && inside[i - 1] !== 'content')
          .map((word) => (/^\d+$/.test(word) ? `[${word}]` : `.${word}`))
          .join('')
          .replace(/^\./, '');
        return path ? `\`${path}\`` : change.operation ? 'the operation' : 'itself';
      }),
    );
    const operation = group[0]?.change.operation;
    return {
      level: highest(group.map(({ change }) => change.level)),
      ids: unique(group.map(({ change }) => change.id)),
      operations: operation ? [operation] : [],
      where: operation ? '' : `\`${area}\``,
      what: `documentation edited (${keys.join(', ')}): ${places.join(', ')}`,
      changes: group.map(({ index }) => index),
    };
  });
}

/** Breaking changes, then deprecations and sunsets, then what may break, then the rest. */
export const sectionOf = (entry: Entry) =>
  entry.level === 'error' ? 0 : isDeprecation(entry) ? 1 : entry.level === 'warning' ? 2 : 3;

const sortKey = (entry: Entry) =>
  `${sectionOf(entry)}${entry.operations.length === 1 ? `0${entry.operations[0]}` : entry.operations.length > 1 ? '1' : '2'}`;

/** The findings as entries, breaking first; `documents` (the two versions) name alternatives and components. */
export function foldChanges(changes: Change[], documents?: Documents): Entry[] {
  const documentation: { index: number; change: Change }[] = [];
  const byProperty = new Map<string, Located[]>();
  for (const [index, change] of changes.entries()) {
    if (isDocumentation(change)) {
      documentation.push({ index, change });
      continue;
    }
    const location = locate(change, documents);
    const restructured = location.steps
      .filter((step) => step.kind === 'alternative' && !step.matched)
      .map((step) => (step.kind === 'alternative' ? step.label : ''))
      .join(' → ');
    const keySteps = withoutRestructures(location.steps);
    const key = JSON.stringify([change.operation, location.place, location.mediaType, pathText(keySteps)]);
    byProperty.set(key, [...(byProperty.get(key) ?? []), { index, change, location, restructured, keySteps }]);
  }
  const entries = [...foldShared([...byProperty.values()].map(propertyDraft)), ...documentationEntries(documentation)];
  // Stable: within a level and an operation, the order the engine found them in.
  return entries
    .map((entry, order) => ({ entry, order }))
    .sort((a, b) => sortKey(a.entry).localeCompare(sortKey(b.entry)) || a.order - b.order)
    .map(({ entry }) => entry);
}
