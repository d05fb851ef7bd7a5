// Bytes that are not UTF-8 where a request carries text: in a string or object key of a JSON body,
// or percent-encoded in a path or query component. A decoder puts U+FFFD in place of such bytes,
// so the text would be stored as something other than what was sent: it is refused instead, with
// the field it is in.
import { Buffer, isUtf8 } from 'node:buffer';
import type { FieldError } from '../domain/field-errors.js';
import { escapePointer } from '../spec.js';

export const NOT_PERCENT_ENCODED_UTF8 = 'must be percent-encoded UTF-8 (each %XX a byte of UTF-8 text)';
const NOT_UTF8 = 'is not UTF-8: the text of a JSON body must be UTF-8';

/** A percent-encoded component decoded; undefined when its bytes are not UTF-8 or a `%` starts no byte. */
export function decodedComponent(component: string): string | undefined {
  try {
    return decodeURIComponent(component);
  } catch {
    // Bytes that are not UTF-8, or a `%` that starts no byte: no text.
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OBJECT_START = 0x7b;
const OBJECT_END = 0x7d;
const ARRAY_START = 0x5b;
const ARRAY_END = 0x5d;

/** An object or array of the JSON text that encloses the byte being read. */
interface Enclosing {
  isObject: boolean;
  /** Of an object: the bytes of its current member's key, between its quotes. */
  keyStart: number;
  keyEnd: number;
  /** Of an object: its current member's key as a pointer segment, once a field below it has failed. */
  segment: string | undefined;
  /** Of an object: whether the next string is a key. */
  expectingKey: boolean;
  /** Of an array: the index of its current item. */
  index: number;
}

/** Where the string that starts after the quote at `from` ends: its closing quote, or the end. */
function stringEnd(json: Uint8Array, from: number): number {
  let at = from;
  while (json[at] !== undefined && json[at] !== QUOTE) at += json[at] === BACKSLASH ? 2 : 1;
  return Math.min(at, json.length);
}

function keyText(json: Uint8Array, start: number, end: number): string {
  const written = Buffer.from(json.buffer, json.byteOffset + start, end - start).toString('utf8');
  try {
    return JSON.parse(`"${written}"`) as string;
  } catch {
    // Not a JSON string (a raw control character, a broken escape): the body fails to parse anyway.
    return written;
  }
}

function pointerOf(json: Uint8Array, enclosing: readonly Enclosing[], root: string): string {
  const segments = enclosing.map((at) => {
    if (!at.isObject) return String(at.index);
    at.segment ??= escapePointer(keyText(json, at.keyStart, at.keyEnd));
    return at.segment;
  });
  return segments.length === 0 ? root : `${root}/${segments.join('/')}`;
}

/**
 * The fields of a JSON text (its bytes, not UTF-8 somewhere) whose string value or object key
 * holds bytes that are not UTF-8, named from `root` (`/body`); at most `max` of them. One pass over
 * the bytes, without recursion; a field's name is read only when it fails. Bytes that are not
 * UTF-8 outside any string make the text invalid JSON, for its parser to refuse.
 */
export function notUtf8Fields(json: Uint8Array, root: string, max: number): FieldError[] {
  const errors: FieldError[] = [];
  const enclosing: Enclosing[] = [];
  let at = 0;
  while (errors.length < max) {
    const byte = json[at];
    if (byte === undefined) break;
    const current = enclosing.at(-1);
    if (byte === QUOTE) {
      const end = stringEnd(json, at + 1);
      const isKey = current?.isObject === true && current.expectingKey;
      if (current && isKey)
        Object.assign(current, { keyStart: at + 1, keyEnd: end, segment: undefined, expectingKey: false });
      if (!isUtf8(json.subarray(at + 1, end)))
        errors.push({
          path: pointerOf(json, enclosing, root),
          message: isKey ? `has a name that ${NOT_UTF8}` : NOT_UTF8,
        });
      at = end + 1;
      continue;
    }
    if (byte === OBJECT_START || byte === ARRAY_START) {
      enclosing.push({
        isObject: byte === OBJECT_START,
        keyStart: 0,
        keyEnd: 0,
        segment: undefined,
        expectingKey: true,
        index: 0,
      });
    } else if (byte === OBJECT_END || byte === ARRAY_END) {
      enclosing.pop();
    } else if (byte === COMMA && current) {
      if (current.isObject) current.expectingKey = true;
      else current.index += 1;
    }
    at += 1;
  }
  return errors;
}
