// Bytes that are not UTF-8: the percent-encoded components that do not decode, and the fields of
// a JSON text whose strings or keys hold such bytes, named as JSON pointers, in one pass over the
// bytes without recursion.
import { describe, expect, it } from 'vitest';
import { decodedComponent, notUtf8Fields } from '../../server/validation/not-utf8.js';

/** JSON text with some bytes that are not UTF-8: `\xNN` in `text` stands for the byte NN. */
function bytes(text: string): Uint8Array {
  return Buffer.from(text, 'latin1');
}

const paths = (json: string, max = 100) => notUtf8Fields(bytes(json), '/body', max).map((error) => error.path);

describe('decodedComponent', () => {
  it.each([
    ['a byte that starts no character', '%FF'],
    ['an overlong encoding', '%C0%AF'],
    ['an encoded surrogate', '%ED%A0%80'],
    ['a truncated character', '%E2%82'],
    ['a % before no byte', '%zz'],
    ['a % at the end', 'a%'],
  ])('refuses %s', (_name, component) => {
    expect(decodedComponent(component)).toBeUndefined();
  });

  it.each([
    ['ASCII', 'plain', 'plain'],
    ['a character of three bytes', '%E2%82%AC', '€'],
    ['a surrogate pair, as four bytes', '%F0%9F%99%82', '🙂'],
    ['U+FFFD itself', '%EF%BF%BD', '\ufffd'],
  ])('decodes %s', (_name, component, text) => {
    expect(decodedComponent(component)).toBe(text);
  });
});

describe('notUtf8Fields', () => {
  it('names a string value by its pointer, at any depth, array items by their index', () => {
    expect(paths('{"a":"ok","b":{"c":[1,"ok",{"d":"x\xff"}]},"e":"\xc0\xaf"}')).toEqual(['/body/b/c/2/d', '/body/e']);
  });

  it('names a key that holds such bytes, with its own pointer, and says it is the name', () => {
    const errors = notUtf8Fields(bytes('{"h":{"x\xff":"v"}}'), '/body', 100);
    expect(errors).toEqual([
      { path: '/body/h/x\ufffd', message: expect.stringMatching(/^has a name that is not UTF-8/) },
    ]);
  });

  it('reads the escapes of keys, and escapes the pointer', () => {
    expect(paths('{"a\\/b~\\"c\\u0041":{"k":"\xff"}}')).toEqual(['/body/a~1b~0"cA/k']);
  });

  it('is not misled by escaped quotes and brackets inside strings', () => {
    expect(paths('{"a":"\\"{[,","b":["\\\\",",]}","\xff"]}')).toEqual(['/body/b/2']);
  });

  it('names a string that is the whole text by the root', () => {
    expect(paths('"\xed\xa0\x80"')).toEqual(['/body']);
  });

  it('names a string that runs to the end of the text without its closing quote', () => {
    expect(paths('{"a":["\xff')).toEqual(['/body/a/0']);
  });

  it('names no field for bytes outside any string, which the JSON parser refuses', () => {
    expect(paths('{"a":"ok",\xff}')).toEqual([]);
  });

  it('stops at `max` fields', () => {
    const json = `[${Array.from({ length: 50 }, () => '"\xff"').join(',')}]`;
    expect(paths(json, 3)).toEqual(['/body/0', '/body/1', '/body/2']);
  });

  it('reads text nested far deeper than a recursive reader could', () => {
    const depth = 200_000;
    const json = `${'['.repeat(depth)}"\xff"${']'.repeat(depth)}`;
    const [path] = paths(json);
    expect(path).toBe(`/body${'/0'.repeat(depth)}`);
  });
});
