// Entity tags, If-Match and If-None-Match (server/domain/etag.ts).
import { describe, expect, it } from 'vitest';
import {
  destinationEtag,
  ifMatchSatisfied,
  ifNoneMatchSatisfied,
  type PageFacts,
  presetPageEtag,
} from '../../server/domain/etag.js';

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

describe('the tag of a page of versions', () => {
  const page: PageFacts = {
    contractVersion: '2.3.0',
    presetId: 'p1',
    versionCount: 7,
    offset: 0,
    limit: 50,
    budget: 1000,
  };

  it('is strong, quoted, 32 URL-safe characters, and the same for the same facts', () => {
    expect(presetPageEtag(page)).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(presetPageEtag({ ...page })).toBe(presetPageEtag(page));
  });

  it('changes with every fact that decides the page', () => {
    const changed: PageFacts[] = [
      { ...page, contractVersion: '2.4.0' },
      { ...page, presetId: 'p2' },
      { ...page, versionCount: 8 },
      { ...page, offset: 1 },
      { ...page, limit: 49 },
      { ...page, budget: 999 },
    ];
    const tags = new Set([page, ...changed].map(presetPageEtag));
    expect(tags.size).toBe(changed.length + 1);
  });

  it('keeps the facts apart: the same digits split otherwise make another tag', () => {
    expect(presetPageEtag({ ...page, versionCount: 1, offset: 23 })).not.toBe(
      presetPageEtag({ ...page, versionCount: 12, offset: 3 }),
    );
  });

  it('is matched by If-None-Match weakly: a list, W/, *, spaces; nothing else', () => {
    const etag = presetPageEtag(page);
    for (const header of [etag, `"a", ${etag}`, `W/${etag}`, '*', ` ${etag} `, `"a",${etag}`])
      expect(ifNoneMatchSatisfied(header, etag), header).toBe(true);
    // W/ is a prefix: inside a tag it is part of the tag.
    const inside = `"${etag.slice(1, 9)}W/${etag.slice(9)}`;
    for (const header of ['"a"', 'W/"a"', etag.slice(1, -1), `${etag}x`, '', inside])
      expect(ifNoneMatchSatisfied(header, etag), header).toBe(false);
  });
});
