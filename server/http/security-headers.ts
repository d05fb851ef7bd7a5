// The security headers of every API answer, with helmet.
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** A JSON API serves no documents: nothing may be loaded, framed or sniffed from its answers. */
export function securityHeaders(): RequestHandler {
  return helmet({ contentSecurityPolicy: { directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } } });
}
