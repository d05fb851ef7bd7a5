// A body's content compared, media type by media type: removed, added, or renamed as oasdiff's
// content diff pairs names (parameters changed, a structured suffix gained or lost), and the schema
// of each kept one in the direction it flows.
import type { Findings } from './findings.js';
import { compareSchemas, type Schema } from './schema-compare.js';

type Json = Record<string, unknown>;

export const contentOf = (container: Json | undefined) => (container?.content ?? {}) as Record<string, Json>;

export function compareContent(
  before: Record<string, Json>,
  after: Record<string, Json>,
  side: 'request' | 'response',
  operation: string,
  where: string,
  findings: Findings,
): void {
  const prefix = side === 'request' ? 'request-body-media-type' : 'response-media-type';
  // Pairing is the content diff's, on both sides; only a response reports the new name.
  const renamed = renamedMediaTypes(Object.keys(before), Object.keys(after));
  for (const [mediaType, content] of Object.entries(before)) {
    const rename = renamed.get(mediaType);
    const next = after[rename?.to ?? mediaType];
    if (rename && side === 'response')
      findings.add(rename.id, operation, where, `media type ${mediaType} -> ${rename.to}`);
    if (!next) {
      findings.add(`${prefix}-removed`, operation, where, `media type ${mediaType} removed`);
      continue;
    }
    const [was, is] = [content.schema as Schema | undefined, next.schema as Schema | undefined];
    if (Boolean(was) !== Boolean(is))
      findings.add(
        `${side}-body-media-type-schema-${is ? 'added' : 'removed'}`,
        operation,
        `${where} ${mediaType}`,
        `schema ${is ? 'added' : 'removed'}`,
      );
    compareSchemas(was, is, { side, top: 'body', operation, mediaType }, `${where} ${mediaType}`, findings);
  }
  const renamedTo = new Set([...renamed.values()].map((r) => r.to));
  for (const mediaType of Object.keys(after))
    if (!(mediaType in before) && !renamedTo.has(mediaType))
      findings.add(`${prefix}-added`, operation, where, `media type ${mediaType} added`);
}

const essence = (mediaType: string) => (mediaType.split(';')[0] ?? '').trim().toLowerCase();

/** `application/problem+json` as type, subtype and structured suffix: application, problem, json. */
function nameParts(mediaType: string): { type: string; subtype: string; suffix: string } | undefined {
  const [type, rest, more] = essence(mediaType).split('/');
  if (!type || !rest || more !== undefined) return undefined;
  const [subtype = '', suffix = '', extra] = rest.split('+');
  return extra === undefined ? { type, subtype, suffix } : undefined;
}

/** A media type's parameters, written one way whatever the spacing and the case of their names. */
const parametersOf = (mediaType: string) =>
  mediaType
    .split(';')
    .slice(1)
    .map((p) => {
      const [name = '', ...value] = p.split('=');
      return `${name.trim().toLowerCase()}=${value.join('=').trim()}`;
    })
    .sort()
    .join(';');

/**
 * Whether `to` stays within `from` as oasdiff's content diff reads names (parameters aside): the same
 * type and subtype and suffix, or `from` a plain subtype that `to` carries as its suffix
 * (`application/json` holds `application/problem+json`, not the reverse).
 */
function nameContains(from: string, to: string): boolean {
  const [a, b] = [nameParts(from), nameParts(to)];
  if (!a || !b || a.type !== b.type) return false;
  if (a.suffix === '' && b.suffix !== '' && b.suffix === a.subtype) return true;
  return a.subtype === b.subtype && a.suffix === b.suffix;
}

/**
 * A media type that only changed its parameters, or gained or lost a structured suffix of its subtype
 * (`application/json`, `application/problem+json`), with nothing else in its place: oasdiff compares
 * it as the same content, under another name. A range (`application/*`) pairs with nothing, as
 * oasdiff's IsMediaTypeNameContained compares subtypes literally.
 */
function renamedMediaTypes(before: string[], after: string[]): Map<string, { to: string; id: string }> {
  const renamed = new Map<string, { to: string; id: string }>();
  const [gone, come] = [before.filter((m) => !after.includes(m)), after.filter((m) => !before.includes(m))];
  const related = (from: string, to: string) => nameContains(from, to) || nameContains(to, from);
  for (const from of gone) {
    const to = come.find((m) => related(from, m) && ![...renamed.values()].some((r) => r.to === m));
    if (!to) continue;
    // oasdiff's ResponseMediaTypeNameUpdatedCheck: parameters changed, else contained, else wider.
    const id =
      parametersOf(to) !== parametersOf(from)
        ? 'response-media-type-name-changed'
        : nameContains(from, to)
          ? 'response-media-type-name-specialized'
          : 'response-media-type-name-generalized';
    renamed.set(from, { to, id });
  }
  return renamed;
}
