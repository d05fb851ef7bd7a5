// Entity tags of destinations. The tag is derived from the revision, which grows on every real
// change, so a value changed and changed back still gets a new tag (no ABA).

export function destinationEtag(revision: number): string {
  return `"r${revision}"`;
}

/** RFC 9110 If-Match: `*`, or a list of tags compared strongly (a weak tag never matches). */
export function ifMatchSatisfied(ifMatch: string, currentEtag: string): boolean {
  const candidates = ifMatch.split(',').map((tag) => tag.trim());
  return candidates.includes('*') || candidates.includes(currentEtag);
}
