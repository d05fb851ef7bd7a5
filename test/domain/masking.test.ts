// How secrets and keys are shown in answers (server/domain/masking.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apiKeyLabel, looksMasked, maskConfig, maskSecret } from '../../server/domain/masking.js';
import { RUNS, runParameters } from '../conformance/runs.js';

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
