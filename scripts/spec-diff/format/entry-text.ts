// The words of an entry: where it is (a place and the steps of a path inside its schema) and what
// changed there, the findings of one property told together.
import type { Change } from '../engine/compare.js';
import type { Location, Step } from './locate.js';

const unique = <T>(values: T[]) => [...new Set(values)];

/** `filter_rules.groups[].rules[]` (the `regex` rule) → `operator`. */
export function pathText(steps: Step[]): string {
  const chunks: string[] = [];
  let code = '';
  for (const step of steps) {
    if (step.kind === 'alternative') {
      chunks.push(`${code ? `\`${code}\` ` : ''}(${step.label})`);
      code = '';
    } else if (step.kind === 'keyword') {
      if (code) chunks.push(`\`${code}\``);
      chunks.push(step.name);
      code = '';
    } else if (step.kind === 'items') code += '[]';
    else code += code ? `.${step.name}` : step.name;
  }
  if (code) chunks.push(`\`${code}\``);
  return chunks.join(' → ');
}

/** `header \`RateLimit\``, from `response 429 header RateLimit`. */
export const withinResponse = (suffix: string) => {
  const header = /^ header (\S+)$/.exec(suffix)?.[1];
  return header ? `header \`${header}\`` : suffix.trim();
};

export function placeText(location: Location): string {
  const response = /^response (\S+)( .+)$/.exec(location.place);
  if (response) return join([`response ${response[1]}`, withinResponse(response[2] ?? '')]);
  const parameter = /^(path|query|header|cookie) parameter (.+)$/.exec(location.place);
  const place = parameter ? `${parameter[1]} parameter \`${parameter[2]}\`` : location.place;
  const media = location.mediaType && location.mediaType !== 'application/json' ? ` (${location.mediaType})` : '';
  return `${place}${media}`;
}

export const join = (parts: string[]) => parts.filter(Boolean).join(' → ');
export const quote = (value: unknown) => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;

export interface Located {
  index: number;
  change: Change;
  location: Location;
  /** The alternatives passed that one document does not have (a restructure), by label. */
  restructured: string;
  keySteps: Step[];
}

/** The `what`s of one rule at one place: enum values gathered, the rest listed once each. */
function mergedWhat(items: Located[]): string {
  const enumChange = /^(?:enum value|oneOf:|anyOf:) (.+) (added|removed)$/;
  const values = new Map<string, string[]>();
  const others: string[] = [];
  for (const { change, location } of items) {
    if (location.movedInto && /removed$/.test(change.what)) {
      others.push(`${change.what}: moved into ${location.movedInto.join(', ')}`);
      continue;
    }
    const match = enumChange.exec(change.what);
    if (match) values.set(match[2] ?? '', [...(values.get(match[2] ?? '') ?? []), match[1] ?? '']);
    else others.push(change.what);
  }
  const texts = unique(others);
  for (const [verb, list] of values) {
    const kept = items[0]?.location.afterNode?.enum;
    // Most values gone: what is left says more than what went.
    if (verb === 'removed' && Array.isArray(kept) && list.length >= kept.length)
      texts.push(`only ${kept.map(quote).join(', ')} accepted now (${list.length} values removed)`);
    else {
      const kind = /^(oneOf|anyOf):/.exec(items[0]?.change.what ?? '')?.[1];
      const noun = kind ? `${kind} alternative` : 'enum value';
      texts.push(`${noun}${list.length > 1 ? 's' : ''} ${unique(list).join(', ')} ${verb}`);
    }
  }
  return texts.join('; ');
}

/** What one property's findings say, rule by rule. */
function byRule(items: Located[], prefix = ''): string[] {
  const byId = new Map<string, Located[]>();
  for (const item of items) byId.set(item.change.id, [...(byId.get(item.change.id) ?? []), item]);
  return [...byId.values()].map((group) => `${prefix}${mergedWhat(group)}`);
}

/**
 * A property's findings; those of a restructure (one schema split into alternatives, or merged) by
 * alternative, a deeper finding left out where the same rule already says it one level up.
 */
export function propertyText(items: Located[]): string {
  const plainItems = items.filter((item) => !item.restructured);
  const byLabel = new Map<string, Located[]>();
  for (const item of items.filter((i) => i.restructured)) {
    const [label = ''] = item.restructured.split(' → ');
    byLabel.set(label, [...(byLabel.get(label) ?? []), item]);
  }
  const labelTexts = new Map<string, string[]>();
  for (const [label, group] of byLabel) {
    const top = group.filter((item) => item.restructured === label);
    const deeper = group.filter(
      (item) => item.restructured !== label && !top.some((t) => t.change.id === item.change.id),
    );
    const text = [
      ...byRule(top),
      ...deeper.flatMap((item) => byRule([item], `${item.restructured.slice(label.length + ' → '.length)}: `)),
    ].join(', ');
    labelTexts.set(text, [...(labelTexts.get(text) ?? []), label]);
  }
  return [...byRule(plainItems), ...[...labelTexts].map(([text, labels]) => `in ${labels.join(', ')}: ${text}`)].join(
    '; ',
  );
}

export function alternativesNote(items: Located[]): string {
  if (items.some((item) => /^(oneOf|anyOf): /.test(item.change.what))) return '';
  const oneOf = items.find((item) => /one-of-(added|removed)$/.test(item.change.id) && item.location.alternatives);
  return oneOf ? `; now ${oneOf.location.alternatives?.join(', ')}` : '';
}
