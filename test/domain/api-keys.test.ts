// API keys as generated (server/domain/api-keys.ts).
import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey } from '../../server/domain/api-keys.js';

describe('api keys', () => {
  it('generates keys of the documented shape, stored only as their SHA-256', () => {
    const key = generateApiKey();
    expect(key.raw).toMatch(/^sk-or-v1-[0-9a-f]{64}$/);
    expect(key.hash).toBe(hashApiKey(key.raw));
    expect(key.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
