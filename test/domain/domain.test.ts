import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey } from '../../server/domain/api-keys.js';
import { destinationEtag, ifMatchSatisfied } from '../../server/domain/etag.js';
import { apiKeyLabel, looksMasked, maskConfig, maskSecret } from '../../server/domain/masking.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { usageWindows } from '../../server/domain/time.js';
import { RUNS, runParameters } from '../conformance/runs.js';

describe('usage windows', () => {
  it.each([
    ['a Wednesday', '2026-11-18T12:00:00Z', { day: '2026-11-18', weekStart: '2026-11-16', monthStart: '2026-11-01' }],
    [
      'a Monday at midnight',
      '2026-11-16T00:00:00Z',
      { day: '2026-11-16', weekStart: '2026-11-16', monthStart: '2026-11-01' },
    ],
    [
      'a Sunday just before midnight',
      '2026-11-22T23:59:59.999Z',
      { day: '2026-11-22', weekStart: '2026-11-16', monthStart: '2026-11-01' },
    ],
    [
      'a week that began last year',
      '2027-01-01T08:00:00Z',
      { day: '2027-01-01', weekStart: '2026-12-28', monthStart: '2027-01-01' },
    ],
    ['a leap day', '2028-02-29T10:00:00Z', { day: '2028-02-29', weekStart: '2028-02-28', monthStart: '2028-02-01' }],
  ])('on %s', (_name, now, expected) => {
    expect(usageWindows(new Date(now))).toEqual(expected);
  });
});

describe('masking', () => {
  it('labels a key by its prefix, 3 characters and its last 4', () => {
    const key = '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';
    expect(apiKeyLabel(key)).toBe('sk-or-v1-0e6...1c96');
  });

  it('shows the first and last 4 characters of a secret of 32 characters or more, nothing of a shorter one', () => {
    const [shortest, below] = ['0123456789abcdef0123456789ABCDEF', '0123456789abcdef0123456789ABCDE'];
    expect([shortest.length, below.length]).toEqual([32, 31]);
    expect(maskSecret(shortest)).toBe('0123...CDEF');
    expect(maskSecret(below)).toBe('********');
    expect(maskSecret('sk-lf-0b7e2f4c9a1d4e6b8c3f5a7d9e1b2c4d')).toBe('sk-l...2c4d');
    expect(maskSecret('1234567890123')).toBe('********');
    expect(maskSecret('123456789012')).toBe('********');
    expect(maskSecret('')).toBe('********');
  });

  it("shows at most 8 characters of any secret, and at most a quarter of it, in a mask of a mask's shape", () => {
    const secret = fc.oneof(
      fc.string({ maxLength: 64 }),
      fc.string({ minLength: 28, maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 512 }),
    );
    fc.assert(
      fc.property(secret, (value) => {
        const mask = maskSecret(value);
        // Whatever a client sends back of it is seen as a mask, never stored as a secret.
        expect(looksMasked(mask)).toBe(true);
        if (mask === '********') return;
        // Else the secret's first and last characters around `...` (which the secret may hold too).
        const around = [...mask.matchAll(/(?=\.\.\.)/g)].map(({ index }) => [
          mask.slice(0, index),
          mask.slice(index + 3),
        ]);
        expect(around.some(([first = '', last = '']) => value.startsWith(first) && value.endsWith(last))).toBe(true);
        const shown = mask.length - '...'.length;
        expect(shown).toBeLessThanOrEqual(8);
        expect(shown).toBeLessThanOrEqual(value.length / 4);
      }),
      runParameters(RUNS),
    );
  });

  it('recognises the shapes of a mask', () => {
    for (const value of ['pk-l...EfGh', '********', '*', '...']) expect(looksMasked(value)).toBe(true);
    for (const value of ['pk-lf-1234', 'a.b.c', '**a']) expect(looksMasked(value)).toBe(false);
  });

  it('masks the secret keys and every header of a config, and nothing else', () => {
    const masked = maskConfig(
      {
        baseUrl: 'https://example.com/a/long/path/of/more/than/32/characters',
        apiKey: 'api-key-0123456789abcdef0123456789',
        token: 'short-token',
        headers: { A: 'header-value-0123456789abcdef-0123456', B: 'header-value' },
      },
      new Set(['apiKey', 'token']),
    );
    expect(masked).toEqual({
      baseUrl: 'https://example.com/a/long/path/of/more/than/32/characters',
      apiKey: 'api-...6789',
      token: '********',
      headers: { A: 'head...3456', B: '********' },
    });
  });
});

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

  it('needs a 32-byte key', () => {
    expect(() => createSecretBox(randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe('api keys and entity tags', () => {
  it('generates keys of the documented shape, stored only as their SHA-256', () => {
    const key = generateApiKey();
    expect(key.raw).toMatch(/^sk-or-v1-[0-9a-f]{64}$/);
    expect(key.hash).toBe(hashApiKey(key.raw));
    expect(key.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('compares If-Match strongly, with * and lists', () => {
    const etag = destinationEtag(3);
    expect(ifMatchSatisfied(etag, etag)).toBe(true);
    expect(ifMatchSatisfied('*', etag)).toBe(true);
    expect(ifMatchSatisfied(`"x", ${etag}`, etag)).toBe(true);
    expect(ifMatchSatisfied(`W/${etag}`, etag)).toBe(false);
    expect(ifMatchSatisfied(destinationEtag(2), etag)).toBe(false);
  });
});
