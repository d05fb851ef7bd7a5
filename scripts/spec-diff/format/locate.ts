// Where a change is, as a person reads it. The engine says `request body application/json.a[](alternative 2).b`;
// this reads the same place in both documents ($refs followed by hand, so that the shared component
// it lies in is known) and names each oneOf alternative by what tells it apart.
import type { Change } from '../engine/compare.js';

type Json = Record<string, unknown>;

export type Step =
  | { kind: 'property'; name: string }
  | { kind: 'items' }
  /** A keyword holding a schema (`not`, `additionalProperties`) or a named one (a pattern property). */
  | { kind: 'keyword'; name: string }
  /** `matched`: both documents have these alternatives; otherwise one side is a single schema (a restructure). */
  | { kind: 'alternative'; index: number; label: string; matched: boolean };

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

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function pointer(document: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    node = isObject(node) || Array.isArray(node) ? (node as Json)[key] : undefined;
  }
  return node;
}

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

const isNullSchema = (schema: Json | undefined) =>
  schema?.type === 'null' || (Array.isArray(schema?.type) && schema.type.length === 1 && schema.type[0] === 'null');

/** A schema walked through one document, $refs followed, remembering the last component entered. */
class Walker {
  component?: { name: string; from: number };
  node: Json | undefined;
  constructor(
    private readonly document: Json,
    node: unknown,
  ) {
    this.enter(node, 0);
  }

  enter(node: unknown, stepsDone: number): void {
    this.node = isObject(node) ? node : undefined;
    for (let hops = 0; hops < 20 && typeof this.node?.$ref === 'string'; hops++) {
      const ref = this.node.$ref;
      const name = SCHEMA_REF.exec(ref)?.[1];
      if (name) this.component = { name: decodeURIComponent(name), from: stepsDone };
      const target = pointer(this.document, ref);
      this.node = isObject(target) ? target : undefined;
    }
  }

  /** The non-null entries of the node's oneOf or anyOf, as written ($refs not followed). */
  entries(): unknown[] | undefined {
    const list = (this.node?.oneOf ?? this.node?.anyOf) as unknown;
    if (!Array.isArray(list)) return undefined;
    return list.filter((entry) => !isNullSchema(new Walker(this.document, entry).node));
  }

  alternatives(): Json[] {
    return (this.entries() ?? []).map((entry) => new Walker(this.document, entry).node ?? {});
  }

  /** The schema as JSON with its $refs written out, as the engine (which dereferences) sees it. */
  inline(node: unknown, seen: ReadonlySet<string> = new Set()): string {
    if (Array.isArray(node)) return `[${node.map((n) => this.inline(n, seen)).join(',')}]`;
    if (!isObject(node)) return JSON.stringify(node) ?? 'null';
    const ref = node.$ref;
    if (typeof ref === 'string' && Object.keys(node).length === 1)
      return seen.has(ref) ? '"cycle"' : this.inline(pointer(this.document, ref), new Set([...seen, ref]));
    return `{${Object.entries(node)
      .map(([key, value]) => `${JSON.stringify(key)}:${this.inline(value, seen)}`)
      .join(',')}}`;
  }

  /** As the engine does: `oneOf: [X, null]` is X. */
  core(stepsDone: number): void {
    const entries = this.entries();
    if (entries?.length !== 1) return;
    this.enter(entries[0], stepsDone);
    this.core(stepsDone);
  }
}

/** `the second rule alternative` for the second (counted from 1). */
const ordinalLabel = (position: number, noun: string | undefined) =>
  `the ${ORDINALS[position - 1] ?? `${position}th`} ${noun ? `${noun} ` : ''}alternative`;

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];

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

function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  if (name.endsWith('s') && !name.endsWith('ss')) return name.slice(0, -1);
  return name;
}

const valuesOf = (schema: unknown): unknown[] | undefined => {
  if (!isObject(schema)) return undefined;
  if ('const' in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
};

/** The values of the property that tells the alternatives apart: one that has a const or an enum in each. */
function discriminator(
  alternatives: Json[],
  document: Json,
): ((alternative: Json) => unknown[] | undefined) | undefined {
  const propertyOf = (alternative: Json, name: string) => {
    return valuesOf(new Walker(document, (alternative.properties as Json | undefined)?.[name]).node);
  };
  const first = alternatives[0]?.properties;
  if (!isObject(first)) return undefined;
  // A property with the same values everywhere (a shared enum of fields) tells nothing apart.
  const name = Object.keys(first).find((key) => {
    const values = alternatives.map((a) => propertyOf(a, key));
    return values.every((v) => v !== undefined) && new Set(values.map((v) => JSON.stringify(v))).size === values.length;
  });
  return name === undefined ? undefined : (alternative) => propertyOf(alternative, name);
}

/** `the \`regex\` rule`, `the numeric comparison rule`, `as a number`, `the second alternative`. */
export function alternativeLabels(alternatives: Json[], document: Json, noun: string | undefined): string[] {
  const discriminating = discriminator(alternatives, document);
  const typeOf = (a: Json) => (typeof a.type === 'string' ? a.type : undefined);
  const distinctTypes = new Set(alternatives.map(typeOf)).size === alternatives.length;
  return alternatives.map((alternative, index) => {
    const values = discriminating?.(alternative);
    const what = noun ?? 'alternative';
    if (values?.length === 1) return `the \`${String(values[0])}\` ${what}`;
    if (typeof alternative.title === 'string') return `the ${alternative.title} ${what}`;
    if (values && values.length > 1 && values.length <= 4)
      return `the ${values.map((v) => `\`${String(v)}\``).join('/')} ${what}`;
    const type = typeOf(alternative);
    if (distinctTypes && type) return `as ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
    return ordinalLabel(index + 1, noun);
  });
}

/** What the alternatives at a step are called: the singular of the array holding them, or the property. */
function nounAt(steps: Step[]): string | undefined {
  const [last, previous] = [steps.at(-1), steps.at(-2)];
  if (last?.kind === 'items' && previous?.kind === 'property') return singular(previous.name);
  if (last?.kind === 'property') return last.name;
  return undefined;
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
