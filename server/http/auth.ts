// Bearer key -> calling key, workspace and kind. Only the SHA-256 hash of a key is ever stored.
import type { RequestHandler } from 'express';
import type { Caller, KeyKind } from '../domain/api-keys.js';
import { API_KEY_PATTERN, hashApiKey } from '../domain/api-keys.js';
import type { Clock } from '../domain/time.js';
import type { Store } from '../store/index.js';
import { HttpError } from './errors.js';

declare global {
  namespace Express {
    interface Locals {
      caller: Caller;
    }
  }
}

// RFC 7235: the scheme is case-insensitive; RFC 6750: one or more spaces, then the token.
const BEARER_PATTERN = /^bearer +(\S+) *$/i;

function unauthorized(message: string, tokenGiven: boolean): HttpError {
  const challenge = tokenGiven ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"';
  return new HttpError(401, message, null, { 'WWW-Authenticate': challenge });
}

export function authenticate(store: Store, clock: Clock): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization');
    if (header === undefined || header === '')
      throw unauthorized('Missing API key: send Authorization: Bearer <API key>.', false);
    const token = BEARER_PATTERN.exec(header)?.[1];
    if (token === undefined || !API_KEY_PATTERN.test(token))
      throw unauthorized('Malformed API key: send Authorization: Bearer <API key>.', true);
    const key = await store.keys.findByHash(hashApiKey(token));
    if (!key || key.disabled || (key.expires_at !== null && key.expires_at <= clock().toISOString())) {
      throw unauthorized('Invalid API key: it is unknown, disabled or expired.', true);
    }
    res.locals.caller = { keyId: key.id, workspaceId: key.workspace_id, kind: key.kind };
    next();
  };
}

/** The key kinds an operation accepts, as the roles of its security requirement in the spec. */
export function requireKeyKind(accepted: readonly KeyKind[]): RequestHandler {
  const message = `This operation needs a ${accepted.join(' or ')} key.`;
  return (_req, res, next) => {
    if (!accepted.includes(res.locals.caller.kind))
      throw new HttpError(403, message, { accepted_key_kinds: [...accepted] });
    next();
  };
}
