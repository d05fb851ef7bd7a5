// Entity tags and If-Match (server/domain/etag.ts).
import { describe, expect, it } from 'vitest';
import { destinationEtag, ifMatchSatisfied } from '../../server/domain/etag.js';

describe('entity tags', () => {
  it('compares If-Match strongly, with * and lists', () => {
    const etag = destinationEtag(3);
    expect(ifMatchSatisfied(etag, etag)).toBe(true);
    expect(ifMatchSatisfied('*', etag)).toBe(true);
    expect(ifMatchSatisfied(`"x", ${etag}`, etag)).toBe(true);
    expect(ifMatchSatisfied(`W/${etag}`, etag)).toBe(false);
    expect(ifMatchSatisfied(destinationEtag(2), etag)).toBe(false);
  });
});
