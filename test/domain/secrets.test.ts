// Secrets sealed at rest (server/domain/secrets.ts): AES-256-GCM, and key rotation.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, secretsKeyId, UnreadableSecretError } from '../../server/domain/secrets.js';

describe('secrets at rest', () => {
  const box = createSecretBox(randomBytes(32));

  it('round-trips, and never seals the same value the same way twice', () => {
    const sealed = [box.seal('top secret'), box.seal('top secret')];
    expect(sealed[0]).not.toBe(sealed[1]);
    expect(sealed.map((s) => box.open(s))).toEqual(['top secret', 'top secret']);
    expect(sealed[0]).not.toContain('top secret');
  });

  it('refuses a tampered value and a value sealed under another key', () => {
    const sealed = box.seal('top secret');
    const parts = sealed.split('.');
    const ciphertext = Buffer.from(parts[4] ?? '', 'base64url');
    ciphertext[0] = (ciphertext[0] ?? 0) ^ 1;
    const tampered = [...parts.slice(0, 4), ciphertext.toString('base64url')].join('.');
    expect(() => box.open(tampered)).toThrow();
    expect(() => createSecretBox(randomBytes(32)).open(sealed)).toThrow();
  });

  it('opens values sealed under a previous key, and seals under the current one', () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const sealedBefore = createSecretBox(oldKey).seal('rotated');
    const during = createSecretBox(newKey, [oldKey]);
    expect(during.open(sealedBefore)).toBe('rotated');
    expect(during.isCurrent(sealedBefore)).toBe(false);
    const resealed = during.seal(during.open(sealedBefore));
    expect(during.isCurrent(resealed)).toBe(true);
    expect(createSecretBox(newKey).open(resealed)).toBe('rotated');
    expect(() => createSecretBox(newKey).open(sealedBefore)).toThrow(/unknown key/);
  });

  it('says of a value it cannot open that it is unreadable, naming the key id the value names', () => {
    const key = randomBytes(32);
    const sealed = createSecretBox(key).seal('top secret');
    const parts = sealed.split('.');
    const tampered = [...parts.slice(0, 3), Buffer.alloc(16).toString('base64url'), parts[4]].join('.');
    for (const [box, value] of [
      [createSecretBox(randomBytes(32)), sealed],
      [createSecretBox(key), tampered],
    ] as const) {
      let thrown: unknown;
      try {
        box.open(value);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(UnreadableSecretError);
      expect((thrown as UnreadableSecretError).keyId).toBe(secretsKeyId(key));
    }
  });

  it('needs a 32-byte key', () => {
    expect(() => createSecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});
