// The request target in absolute form (`GET http://host:port/api/v1/keys/...`), which proxies and
// some clients send: RFC 9112 §3.2.2 says a server MUST accept it, and that its authority stands
// for the Host header. The rest of the server reads the origin form, so that is what it is given.
import type { IncomingMessage } from 'node:http';

const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)([^#]*)/i;

/** Rewrites an absolute-form target to its origin form, its authority as Host; any other target is left as it came. */
export function toOriginForm(req: IncomingMessage): void {
  const target = req.url;
  if (target === undefined || target.startsWith('/')) return;
  const match = ABSOLUTE_FORM.exec(target);
  if (!match) return;
  const [, authority = '', rest = ''] = match;
  req.url = rest === '' ? '/' : rest.startsWith('?') ? `/${rest}` : rest;
  if (authority !== '') req.headers.host = authority;
}
