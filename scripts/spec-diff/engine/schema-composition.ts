// The alternatives of allOf, anyOf and oneOf paired as oasdiff pairs them: those written as a `$ref`
// by the component they name; inline ones by identical content, then by title, and a last untitled
// one on each side with each other; a `$ref` and an inline schema that validate alike (annotations
// aside) are the same alternative written another way. Paired alternatives are compared; the rest
// are added or removed.
import { inside, reporterAt, type SchemaComparison } from './schema-place.js';
import { refAt, refName, sameSchema } from './schema-refs.js';
import type { Schema } from './schema-types.js';

interface Alternative {
  schema: Schema;
  ref?: string;
}

// Keywords that only document: a sub-schema of nothing else constrains nothing.
const ANNOTATIONS = new Set(['title', 'description', 'examples', 'example', 'deprecated', 'readOnly', 'writeOnly']);
const isAnnotationOnly = (schema: Schema) => Object.keys(schema).every((key) => ANNOTATIONS.has(key));

const json = (value: unknown) => JSON.stringify(value);

/** What a schema validates: the schema without its annotations and extensions, at every depth. */
function validation(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(validation);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !ANNOTATIONS.has(key) && !key.startsWith('x-'))
      .map(([key, inner]) => [key, validation(inner)]),
  );
}

const alternativesOf = (list: Schema[]): Alternative[] =>
  list.map((schema, index) => {
    const ref = refAt(list, index);
    return ref === undefined ? { schema } : { schema, ref };
  });

/** Removes and returns the first item that `matches`, if any. */
function take<T>(items: T[], matches: (item: T) => boolean): T | undefined {
  const index = items.findIndex(matches);
  return index < 0 ? undefined : items.splice(index, 1)[0];
}

export function pairAlternatives(
  listBefore: Schema[],
  listAfter: Schema[],
): { pairs: [Alternative, Alternative][]; removed: Alternative[]; added: Alternative[] } {
  const [before, after] = [alternativesOf(listBefore), alternativesOf(listAfter)];
  const pairs: [Alternative, Alternative][] = [];
  const removed: Alternative[] = [];
  const afterRefs = after.filter((a) => a.ref !== undefined);
  let afterInline = after.filter((a) => a.ref === undefined);
  const beforeInline: Alternative[] = [];
  for (const was of before) {
    if (was.ref === undefined) {
      beforeInline.push(was);
      continue;
    }
    const is = take(afterRefs, (a) => a.ref === was.ref);
    if (is) pairs.push([was, is]);
    else removed.push(was);
  }
  const inlineRemoved = beforeInline.filter((was) => !take(afterInline, (a) => json(a.schema) === json(was.schema)));
  const titled = (alternative: Alternative) => typeof alternative.schema.title === 'string' && alternative.schema.title;
  const unmatched: Alternative[] = [];
  for (const was of inlineRemoved) {
    const is = titled(was) ? take(afterInline, (a) => a.schema.title === was.schema.title) : undefined;
    if (is) pairs.push([was, is]);
    else unmatched.push(was);
  }
  const [lastBefore] = unmatched;
  const [lastAfter] = afterInline;
  if (unmatched.length === 1 && afterInline.length === 1 && lastBefore && lastAfter) {
    if (!titled(lastBefore) && !titled(lastAfter)) {
      pairs.push([lastBefore, lastAfter]);
      unmatched.length = 0;
      afterInline = [];
    }
  }
  const added = [...afterRefs, ...afterInline];
  const gone = [...removed, ...unmatched].filter(
    (was) =>
      !take(
        added,
        (a) =>
          (a.ref === undefined) !== (was.ref === undefined) &&
          json(validation(a.schema)) === json(validation(was.schema)),
      ),
  );
  return { pairs, removed: gone, added };
}

/** allOf, anyOf or oneOf compared: each paired alternative in depth, the others added or removed. */
export function compareComposition(b: Schema, a: Schema, at: SchemaComparison, keyword: string, rule: string): void {
  const [listBefore, listAfter] = [(b[keyword] ?? []) as Schema[], (a[keyword] ?? []) as Schema[]];
  if (listBefore.length === 0 && listAfter.length === 0) return;
  const report = reporterAt(at);
  const { pairs, removed, added } = pairAlternatives(listBefore, listAfter);
  const name = ({ schema, ref }: Alternative) =>
    ref ? refName(ref) : String(schema.title ?? schema.type ?? 'a schema');
  // Numbered among the pairs that differ, in order, as the report's locator reads them. An
  // alternative stands at the depth of the schema that lists it.
  const changed = pairs.filter(([was, is]) => !sameSchema(was.schema, is.schema));
  for (const [index, [was, is]] of changed.entries())
    at.compare(was.schema, is.schema, inside(at, `${at.where}(${keyword} ${index + 1})`, at.depth));
  for (const alternative of added)
    report(
      isAnnotationOnly(alternative.schema) ? `${rule}-added-annotation-only` : `${rule}-added`,
      `${keyword}: ${name(alternative)} added`,
    );
  for (const alternative of removed)
    report(
      isAnnotationOnly(alternative.schema) ? `${rule}-removed-annotation-only` : `${rule}-removed`,
      `${keyword}: ${name(alternative)} removed`,
    );
}
