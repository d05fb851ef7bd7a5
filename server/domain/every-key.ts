// Lists of every key of a type, checked complete by the compiler, and records built from them:
// a key that a type gains (a field of the contract, a column) and a list leaves out is a type
// error naming it, not a value silently missing.

/** `Names` when it holds every key of T; otherwise a type that names the keys left out. */
type Complete<T, Names extends readonly (keyof T)[]> = Names &
  ([Exclude<keyof T, Names[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, Names[number]> });

/** The keys of T, in the order given, checked complete: `everyKey<Row>()(['id', 'name'])`. */
export function everyKey<T>() {
  return <const Names extends readonly (keyof T & string)[]>(names: Complete<T, Names>): Names => names;
}

/**
 * A maker of T from every key of it, given in `keys` (checked complete as by everyKey): each
 * value comes from `valueAt`, and the record has its keys in the order of `keys`.
 */
export function recordOfEveryKey<T>() {
  return <const Names extends readonly (keyof T & string)[]>(keys: Complete<T, Names>) =>
    (valueAt: <K extends keyof T>(key: K) => T[K]): T => {
      const made: Partial<T> = {};
      for (const key of keys) made[key] = valueAt(key);
      // Complete: `keys` holds every key of T, and each was given its value.
      return made as T;
    };
}
