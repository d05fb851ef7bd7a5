// The security headers of every API answer: helmet's, computed once. They depend on nothing in the
// request, so the set helmet would write is taken at start and replayed on each response, one pass
// over a fixed list instead of helmet's dozen middleware calls.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** A JSON API serves no documents: nothing may be loaded, framed or sniffed from its answers. */
export const SECURITY_HEADER_OPTIONS: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
};

interface HeaderSet {
  set: ReadonlyArray<readonly [string, string]>;
  removed: readonly string[];
}

/** What helmet writes on a response with these options, read off a response that records it. */
function helmetHeaderSet(): HeaderSet {
  const set: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string) => set.push([name, String(value)]),
    removeHeader: (name: string) => removed.push(name),
  } as unknown as ServerResponse;
  let done = false;
  helmet(SECURITY_HEADER_OPTIONS)({} as IncomingMessage, recorder, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  // A helmet that answered later or depended on the request could not be replayed.
  if (!done) throw new Error('helmet did not write its headers at once');
  return { set, removed };
}

export function securityHeaders(): RequestHandler {
  const { set, removed } = helmetHeaderSet();
  return (_req, res, next) => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}
