// The schemas of the spec by pointer, their $refs followed, each found once: the checks of a body
// walk the same few schemas on every request.
import { followRefs, isObject, type JsonObject, nodeAt, type OpenApiDocument } from '../spec.js';

export interface FoundSchema {
  /** Where the schema is once its $refs are followed. */
  pointer: string;
  schema: JsonObject;
}

/** `f` of a pointer into the spec, found once: pointers are made of the spec's own names, so few. */
export function memoized<T>(f: (pointer: string) => T): (pointer: string) => T {
  const found = new Map<string, T>();
  return (pointer) => {
    let value = found.get(pointer);
    if (value === undefined) {
      value = f(pointer);
      found.set(pointer, value);
    }
    return value;
  };
}

/** The schema at a pointer of `spec`; an error when the pointer ends at no schema object. */
export function schemaFinder(spec: OpenApiDocument): (pointer: string) => FoundSchema {
  return memoized((pointer) => {
    const found = followRefs(spec, nodeAt(spec, pointer), pointer);
    if (!isObject(found.node)) throw new Error(`openapi.yaml has no schema at ${found.pointer}`);
    return { pointer: found.pointer, schema: found.node };
  });
}
