// The walk that finds text no database can store: every string and key at any depth, in one pass
// without recursion, the path built only for what fails.
import { describe, expect, it } from 'vitest';
import { unstorableTextErrors, unstorableTextReason } from '../../server/domain/storable-text.js';

describe('unstorableTextReason', () => {
  it.each([
    ['U+0000', 'a\u0000b', /U\+0000/],
    ['a lone high surrogate at the end', 'a\ud800', /unpaired surrogate/],
    ['a lone low surrogate at the start', '\udc00a', /unpaired surrogate/],
    ['two high surrogates', '\ud83d\ud83d\ude00', /unpaired surrogate/],
    ['a low surrogate before a high one', '\ude00\ud83d', /unpaired surrogate/],
  ])('refuses %s', (_name, text, reason) => {
    expect(unstorableTextReason(text)).toMatch(reason);
  });

  it.each([
    ['ASCII', 'plain'],
    ['a surrogate pair', '🙂'],
    ['the last code point', '\u{10ffff}'],
    ['U+FFFD', '\ufffd'],
    ['the empty string', ''],
  ])('takes %s', (_name, text) => {
    expect(unstorableTextReason(text)).toBeUndefined();
  });
});

describe('unstorableTextErrors', () => {
  it('names no more than its bound, though one object has more keys past it', () => {
    expect(unstorableTextErrors({ 'a\u0000': 1, 'b\u0000': 2 }, '/body', 1)).toEqual([
      { path: '/body/a\u0000', message: 'has a name that must not contain the character U+0000 (NUL)' },
    ]);
  });

  it('names a string that is the whole value by the root', () => {
    expect(unstorableTextErrors('x\u0000', '/body', 5)).toEqual([
      { path: '/body', message: 'must not contain the character U+0000 (NUL)' },
    ]);
  });

  it('names strings and keys at any depth, as JSON pointers below the root', () => {
    const value = { a: ['ok', { 'b/c~': 'x\u0000' }], 'k\u0000': 1, n: 5, t: true, z: null };
    expect(unstorableTextErrors(value, '/body', 100)).toEqual([
      { path: '/body/k\u0000', message: 'has a name that must not contain the character U+0000 (NUL)' },
      { path: '/body/a/1/b~1c~0', message: 'must not contain the character U+0000 (NUL)' },
    ]);
  });

  it('walks a value nested 100 000 deep without overflowing the stack, and names its leaf', () => {
    let value: unknown = 'leaf\u0000';
    for (let i = 0; i < 100_000; i++) value = i % 2 ? [value] : { a: value };
    const [error] = unstorableTextErrors(value, '/body', 100);
    expect(error?.path.split('/').length).toBe(100_002);
  });

  it('stops at the bound it is given', () => {
    const errors = unstorableTextErrors(
      Array.from({ length: 1000 }, () => '\u0000'),
      '/body',
      100,
    );
    expect(errors).toHaveLength(100);
    expect(errors[99]?.path).toBe('/body/99');
  });

  it('takes any other JSON value', () => {
    expect(unstorableTextErrors({ a: [1, 'é', { b: '🙂' }], c: -0 }, '/body', 100)).toEqual([]);
    expect(unstorableTextErrors(undefined, '/body', 100)).toEqual([]);
  });
});
