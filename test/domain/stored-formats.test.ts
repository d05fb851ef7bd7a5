// Formats that outlive a release: a secret sealed at rest must still open after an upgrade, and
// the shapes of API keys and of masks are what clients and stored data rely on.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_KEY_PATTERN } from '../../server/domain/api-keys.js';
import { looksMasked } from '../../server/domain/masking.js';
import { createSecretBox, UnreadableSecretError } from '../../server/domain/secrets.js';

describe('secrets at rest', () => {
  const KEY = Buffer.alloc(32, 7);
  // Sealed under KEY by an earlier release: `v1`, the key's id, IV, tag and ciphertext.
  const SEALED_BEFORE =
    'v1.4bb06f8e.5lRARyIJ60N3oU3a.wnULuCpzU6wt1CWCLTzGjg.mAOjtrmr68DokEZIx2yMQKbdFZj4tN_fQHe17WEHnlF3k_4-zt4';

  it('opens a value sealed by an earlier release under the same key', () => {
    const box = createSecretBox(KEY);
    expect(box.open(SEALED_BEFORE)).toBe('sk-lf-0b7e2f4c9a1d4e6b8c3f5a7d9e1b2c4d');
    expect(box.isCurrent(SEALED_BEFORE)).toBe(true);
  });

  it('seals in the same format, naming the key by the same id', () => {
    const [version, keyId, ...rest] = createSecretBox(KEY).seal('top secret').split('.');
    expect([version, keyId, rest.length]).toEqual(['v1', '4bb06f8e', 3]);
  });

  it('refuses a value of another format version, and a value that is not sealed at all', () => {
    const box = createSecretBox(KEY);
    expect(() => box.open(SEALED_BEFORE.replace(/^v1\./, 'v2.'))).toThrow(new Error('unrecognised sealed secret'));
    expect(() => box.open('plain text')).toThrow(new Error('unrecognised sealed secret'));
    expect(() => createSecretBox(randomBytes(32)).open(SEALED_BEFORE)).toThrow(
      new UnreadableSecretError(
        '4bb06f8e',
        'secret sealed under an unknown key (4bb06f8e): is SECRETS_KEY_PREVIOUS missing?',
      ),
    );
  });
});

describe('shapes', () => {
  const KEY = `sk-or-v1-${'0123456789abcdef'.repeat(4)}`;

  it('takes as an API key exactly the prefix and 64 lowercase hex characters, nothing around them', () => {
    expect(API_KEY_PATTERN.test(KEY)).toBe(true);
    expect(API_KEY_PATTERN.test(`x${KEY}`)).toBe(false);
    expect(API_KEY_PATTERN.test(`${KEY}0`)).toBe(false);
    expect(API_KEY_PATTERN.test(KEY.toUpperCase())).toBe(false);
  });

  it('sees a mask in stars only when the value is nothing but stars', () => {
    expect(looksMasked('****')).toBe(true);
    expect(looksMasked('token**')).toBe(false);
    expect(looksMasked('**token')).toBe(false);
  });
});
