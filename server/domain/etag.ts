// Entity tags. A destination's is derived from its revision, which grows on every real change, so
// a value changed and changed back still gets a new tag (no ABA). A page of preset versions is the
// same for as long as the preset has the same versions (a stored version never changes), so its
// tag is made of what decides the page: the preset, its count of versions, the page's offset,
// limit and character budget, and the contract's version (a release may write versions anew).
import { createHash } from 'node:crypto';

export function destinationEtag(revision: number): string {
  return `"r${revision}"`;
}

/** RFC 9110 If-Match: `*`, or a list of tags compared strongly (a weak tag never matches). */
export function ifMatchSatisfied(ifMatch: string, currentEtag: string): boolean {
  const candidates = ifMatch.split(',').map((tag) => tag.trim());
  return candidates.includes('*') || candidates.includes(currentEtag);
}

export interface PageFacts {
  contractVersion: string;
  presetId: string;
  versionCount: number;
  offset: number;
  limit: number;
  budget: number;
}

/** A strong tag of a page of versions: 32 characters of a SHA-256 of what decides the page, quoted. */
export function presetPageEtag(page: PageFacts): string {
  const facts = [page.contractVersion, page.presetId, page.versionCount, page.offset, page.limit, page.budget];
  return `"${createHash('sha256').update(facts.join('\n')).digest('base64url').slice(0, 32)}"`;
}

/**
 * RFC 9110 If-None-Match: `*`, or a list of tags compared weakly (`W/"x"` matches `"x"`, §13.1.2);
 * true when the current representation is among them, and a GET is answered 304.
 */
export function ifNoneMatchSatisfied(ifNoneMatch: string, currentEtag: string): boolean {
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === currentEtag);
}
