// Text that both databases store as it was sent. PostgreSQL refuses U+0000 in text; a lone
// surrogate (U+D800 to U+DFFF outside a pair) has no UTF-8 encoding at all, so each database
// stores something else in its place. Such text is refused where it enters, in every string and
// object key of a request, rather than stored differently by each database or failing there.
import { escapePointer } from '../spec.js';
import type { FieldError } from './field-errors.js';

// Without the u flag, so that a surrogate is a unit of its own and a lone one can be told apart.
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be stored as it is, or undefined when it can. */
export function unstorableTextReason(text: string): string | undefined {
  const found = UNSTORABLE.exec(text)?.[0];
  if (found === undefined) return undefined;
  return found === '\0'
    ? 'must not contain the character U+0000 (NUL)'
    : 'must not contain an unpaired surrogate (U+D800 to U+DFFF outside a pair): it has no UTF-8 encoding';
}

interface Visit {
  value: unknown;
  /** The key of this value in its parent; the path is built from these only for a value that fails. */
  key: string;
  parent: Visit | undefined;
}

function pathOf(visit: Visit, root: string): string {
  const keys: string[] = [];
  for (let at = visit; at.parent; at = at.parent) keys.push(escapePointer(at.key));
  return keys.length === 0 ? root : `${root}/${keys.reverse().join('/')}`;
}

/**
 * The field errors of every string and object key in a parsed JSON value that cannot be stored as
 * it is, named from `root` (`/body`); at most `max` of them. One pass over the value, without
 * recursion (a body may nest thousands deep), and a path is built only for a value that fails.
 */
export function unstorableTextErrors(value: unknown, root: string, max: number): FieldError[] {
  const errors: FieldError[] = [];
  const stack: Visit[] = [{ value, key: '', parent: undefined }];
  while (errors.length < max) {
    const visit = stack.pop();
    if (visit === undefined) break;
    const current = visit.value;
    if (typeof current === 'string') {
      const reason = unstorableTextReason(current);
      if (reason) errors.push({ path: pathOf(visit, root), message: reason });
    } else if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--)
        stack.push({ value: current[index], key: String(index), parent: visit });
    } else if (typeof current === 'object' && current !== null) {
      const children = Object.entries(current).map(([key, member]): Visit => ({ value: member, key, parent: visit }));
      for (const child of children) {
        const reason = unstorableTextReason(child.key);
        if (reason) errors.push({ path: pathOf(child, root), message: `has a name that ${reason}` });
      }
      for (let index = children.length - 1; index >= 0; index--) stack.push(children[index] as Visit);
    }
  }
  return errors.slice(0, max);
}
