// Where a change is, as a person reads it. The engine says `request body application/json.a[](alternative 2).b`;
// this reads the same place in both documents ($refs followed by hand, so that the shared component
// it lies in is known) and names each oneOf alternative by what tells it apart.
import type { Change } from '../engine/compare.js';

type Json = Record<string, unknown>;

export type { Step };

export interface Location {
  operation?: string;
  /** `request body`, `response 404`, `query parameter limit`, `security`, or the engine's own words. */
  place: string;
  mediaType?: string;
  steps: Step[];
  /** The deepest schema of components/schemas the path goes through, and the steps inside it. */
  component?: { name: string; steps: Step[] };
  /** The schema the change is about, in the document after (undefined when it has none there). */
  afterNode?: Json;
  /** A property the document after has no more here, but in these alternatives of its parent. */
  movedInto?: string[];
  /** The labels of the alternatives at the end of the path, when there are several. */
  alternatives?: string[];
}

export interface Documents {
  before: Json;
  after: Json;
}

import { isObject } from '../../../server/spec.js';
import { alternativeLabels, nounAt, ordinalLabel, type Step } from './alternative-labels.js';
import { Walker } from './schema-walker.js';

/**
 * `(oneOf 2)`: the engine pairs the entries of a oneOf (anyOf, allOf) found in one document only, in
 * order, and compares the second pair; both walkers go into theirs.
 */
function changedPair(
  walkers: Walker[],
  sides: Json[],
  keyword: string,
  index: number,
  noun: string | undefined,
  done: number,
): Step {
  const [after, before] = walkers;
  const lists = walkers.map((walker) =>
    Array.isArray(walker.node?.[keyword]) ? (walker.node?.[keyword] as unknown[]) : [],
  );
  const keys = walkers.map((walker, i) => (lists[i] ?? []).map((entry) => walker.inline(entry)));
  const onlyIn = (i: number, other: number) =>
    (lists[i] ?? []).filter((_, j) => !(keys[other] ?? []).includes(keys[i]?.[j] ?? ''));
  const [added, removed] = [onlyIn(0, 1)[index - 1], onlyIn(1, 0)[index - 1]];
  const all = (lists[0] ?? []).map((entry) => new Walker(sides[0] ?? {}, entry).node ?? {});
  const position = (lists[0] ?? []).indexOf(added);
  const label = position >= 0 ? alternativeLabels(all, sides[0] ?? {}, noun)[position] : undefined;
  after?.enter(added, done + 1);
  before?.enter(removed, done + 1);
  return {
    kind: 'alternative',
    index,
    label: label ?? ordinalLabel(index, `changed ${keyword}`),
    matched: true,
  };
}

const TOKEN = /^(?:\.([^.[(]+)|(\[\])|\((alternative|oneOf|anyOf|allOf) (\d+)\)|\(([^)]+)\))/;

interface Token {
  name?: string;
  items?: boolean;
  /** `(alternative 2)`: the second alternative; `(oneOf 2)`: the second pair of those that changed. */
  alternative?: number;
  keyword?: string;
}

function parsePath(path: string): Token[] {
  const tokens: Token[] = [];
  let rest = path;
  while (rest.length > 0) {
    const match = TOKEN.exec(rest);
    if (!match) {
      tokens.push({ name: rest.replace(/^\./, '') });
      break;
    }
    if (match[1] !== undefined) tokens.push({ name: match[1] });
    else if (match[2] !== undefined) tokens.push({ items: true });
    else if (match[3] !== undefined) tokens.push({ alternative: Number(match[4]), keyword: match[3] });
    else tokens.push({ keyword: match[5] });
    rest = rest.slice(match[0].length);
  }
  return tokens;
}

function operationIn(document: Json, operation: string): Json | undefined {
  const [method = '', path = ''] = operation.split(' ');
  const item = (document.paths as Json | undefined)?.[path];
  if (!isObject(item)) return undefined;
  const found = item[method.toLowerCase()];
  return isObject(found) ? { ...found, pathParameters: item.parameters } : undefined;
}

const followed = (document: Json, node: unknown) => new Walker(document, node).node;

/** The container of a place's content (a request body or a response), or a parameter, in one document. */
function placeIn(document: Json, operation: Json | undefined, place: string): Json | undefined {
  if (!operation) return undefined;
  if (place === 'request body') return followed(document, operation.requestBody);
  const status = /^response (\S+)$/.exec(place)?.[1];
  if (status) return followed(document, (operation.responses as Json | undefined)?.[status]);
  const parameter = /^(path|query|header|cookie) parameter (.+)$/.exec(place);
  if (!parameter) return undefined;
  const all = [...((operation.parameters ?? []) as unknown[]), ...((operation.pathParameters ?? []) as unknown[])].map(
    (p) => followed(document, p),
  );
  return all.find((p) => p?.in === parameter[1] && p?.name === parameter[2]);
}

/** The alternatives of the node (in the document after) that have the property it no longer has itself. */
function alternativesHolding(
  walker: Walker | undefined,
  document: Json | undefined,
  name: string,
  noun: string | undefined,
): string[] | undefined {
  const properties = walker?.node?.properties as Json | undefined;
  if (!walker?.node || !document || properties?.[name] !== undefined) return undefined;
  const alternatives = walker.alternatives();
  if (alternatives.length < 2) return undefined;
  const labels = alternativeLabels(alternatives, document, noun);
  const holding = labels.filter((_, i) => (alternatives[i]?.properties as Json | undefined)?.[name] !== undefined);
  return holding.length === labels.length ? [`each of its ${labels.length} alternatives`] : holding;
}

const PLACE =
  /^(request body|response \S+ header \S+|response \S+|(?:path|query|header|cookie) parameter [^.[( ]+)(.*)$/;

/** Reads a change's `where` in both documents; without them, alternatives are named by position. */
export function locate(change: Change, documents?: Documents): Location {
  const { operation, where } = change;
  const base = { ...(operation !== undefined && { operation }) };
  if (where === operation) return { ...base, place: '', steps: [] };
  const match = PLACE.exec(where);
  if (!match) return { ...base, place: where, steps: [] };
  const place = match[1] ?? where;
  let rest = match[2] ?? '';
  const sides = documents ? [documents.after, documents.before] : [];
  const containers = sides.map((document) =>
    placeIn(document, operation ? operationIn(document, operation) : undefined, place),
  );
  let mediaType: string | undefined;
  let roots: (Json | undefined)[] = containers.map((c) => c?.schema as Json | undefined);
  if (!place.includes('parameter') && rest.startsWith(' ')) {
    rest = rest.slice(1);
    const known = containers.flatMap((c) => Object.keys((c?.content ?? {}) as Json));
    mediaType =
      known.filter((type) => rest.startsWith(type)).sort((a, b) => b.length - a.length)[0] ??
      /^[^\s/]+\/[\w+-]+/.exec(rest)?.[0] ??
      rest;
    rest = rest.slice(mediaType.length);
    roots = containers.map(
      (c) => ((c?.content as Json | undefined)?.[mediaType ?? ''] as Json | undefined)?.schema as Json,
    );
  }
  const walkers = sides.map((document, index) => new Walker(document, roots[index]));
  const steps: Step[] = [];
  const tokens = parsePath(rest);
  let movedInto: string[] | undefined;
  for (const [position, token] of tokens.entries()) {
    for (const walker of walkers) walker.core(steps.length);
    if (token.alternative !== undefined && token.keyword !== 'alternative') {
      steps.push(changedPair(walkers, sides, token.keyword ?? 'oneOf', token.alternative, nounAt(steps), steps.length));
      continue;
    }
    if (token.alternative !== undefined) {
      const lists = walkers.map((walker) => walker.entries() ?? []);
      const side = lists.findIndex((list) => list.length > 1);
      const labels =
        side >= 0 ? alternativeLabels(walkers[side]?.alternatives() ?? [], sides[side] ?? {}, nounAt(steps)) : [];
      const index = token.alternative;
      steps.push({
        kind: 'alternative',
        index,
        label: labels[index - 1] ?? ordinalLabel(index, nounAt(steps)),
        matched: !walkers.some((walker, i) => walker.node !== undefined && (lists[i]?.length ?? 0) <= 1),
      });
      // A side with a single schema stays on it: the engine compared that schema with each alternative.
      for (const [i, walker] of walkers.entries()) {
        const list = lists[i] ?? [];
        if (list.length > 1) walker.enter(list[index - 1], steps.length);
      }
      continue;
    }
    if (token.keyword !== undefined) {
      const name = token.keyword;
      steps.push({ kind: 'keyword', name });
      for (const walker of walkers) {
        const node = walker.node;
        const named = (node?.patternProperties ?? node?.dependentSchemas) as Json | undefined;
        walker.enter(node?.[name] ?? named?.[name], steps.length);
      }
      continue;
    }
    if (token.name !== undefined && position === tokens.length - 1)
      movedInto = alternativesHolding(walkers[0], sides[0], token.name, nounAt(steps));
    steps.push(token.items ? { kind: 'items' } : { kind: 'property', name: token.name ?? '' });
    for (const walker of walkers)
      walker.enter(
        token.items ? walker.node?.items : (walker.node?.properties as Json | undefined)?.[token.name ?? ''],
        steps.length,
      );
  }
  const resolvedIndex = walkers.findIndex((walker) => walker.node !== undefined);
  const resolved = walkers[resolvedIndex];
  resolved?.core(steps.length);
  const component = resolved?.component;
  const endAlternatives = resolved?.alternatives() ?? [];
  return {
    ...base,
    place,
    ...(mediaType !== undefined && { mediaType }),
    steps,
    ...(component && { component: { name: component.name, steps: steps.slice(component.from) } }),
    ...(walkers[0]?.node && { afterNode: walkers[0].node }),
    ...(movedInto && movedInto.length > 0 && { movedInto }),
    ...(endAlternatives.length > 1 && {
      alternatives: alternativeLabels(endAlternatives, sides[resolvedIndex] ?? {}, nounAt(steps)),
    }),
  };
}
