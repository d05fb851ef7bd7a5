// What each item of a list was written as before dereferencing replaced it by its target: oasdiff
// pairs the alternatives of allOf, anyOf and oneOf by the `$ref` they name, not by their content.
const refsOfLists = new WeakMap<object, Map<string, string>>();

/** Records a `$ref` resolved inside a list (the dereferencer's callback: ref, value, parent, key). */
export function recordRef(ref: string, _value: unknown, parent?: object, key?: string): void {
  if (!Array.isArray(parent) || key === undefined) return;
  const refs = refsOfLists.get(parent) ?? new Map<string, string>();
  refs.set(String(key), ref);
  refsOfLists.set(parent, refs);
}

/** The `$ref` the item at `index` of a dereferenced list was written as, or undefined if inline. */
export function refAt(list: readonly unknown[], index: number): string | undefined {
  return refsOfLists.get(list)?.get(String(index));
}

/** A `$ref`'s last segment: `#/components/schemas/Dog` is `Dog`. */
export const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** A schema as JSON, each list item written as the `$ref` it was. */
function asWritten(schema: unknown): string {
  return JSON.stringify(schema, function (this: unknown, key: string, value: unknown) {
    const ref = Array.isArray(this) ? refAt(this, Number(key)) : undefined;
    return ref === undefined ? value : { $ref: ref };
  });
}

/** Whether two schemas are the same: the same content, and the same components named where they name any. */
export const sameSchema = (a: unknown, b: unknown) =>
  JSON.stringify(a) === JSON.stringify(b) && asWritten(a) === asWritten(b);
