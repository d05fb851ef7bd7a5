// Bearer key -> calling key, workspace and kind. Only the SHA-256 hash of a key is ever stored.
import type { Request, RequestHandler } from 'express';
import type { Caller, KeyKind } from '../domain/api-keys.js';
import { API_KEY_PATTERN, hashApiKey } from '../domain/api-keys.js';
import type { Clock } from '../domain/time.js';
import type { CountAuthFailure } from '../rate-limit/rate-limit.js';
import type { Store } from '../store/store.js';
import { HttpError } from './errors.js';
import { authenticatedCaller, callTraceOf, requestContext } from './request-context.js';

// RFC 7235: the scheme is case-insensitive; RFC 6750: one or more spaces, then the token.
const BEARER_PATTERN = /^bearer +(\S+) *$/i;

function unauthorized(message: string, tokenGiven: boolean): HttpError {
  const challenge = tokenGiven ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"';
  return new HttpError(401, message, null, { 'WWW-Authenticate': challenge });
}

async function callerOf(req: Request, store: Store, clock: Clock): Promise<Caller | HttpError> {
  const header = req.get('authorization');
  if (header === undefined || header === '')
    return unauthorized('Missing API key: send Authorization: Bearer <API key>.', false);
  const token = BEARER_PATTERN.exec(header)?.[1];
  if (token === undefined || !API_KEY_PATTERN.test(token))
    return unauthorized('Malformed API key: send Authorization: Bearer <API key>.', true);
  const key = await store.keys.findByHash(hashApiKey(token), callTraceOf(req));
  if (!key || key.disabled || (key.expires_at !== null && key.expires_at <= clock().toISOString())) {
    return unauthorized('Invalid API key: it is unknown, disabled or expired.', true);
  }
  return { keyId: key.id, workspaceId: key.workspace_id, kind: key.kind };
}

/** The calling key into the request's context; a failure is counted against the client's address. */
export function authenticate(store: Store, clock: Clock, countFailure: CountAuthFailure): RequestHandler {
  return async (req, res, next) => {
    const caller = await callerOf(req, store, clock);
    if (caller instanceof HttpError) {
      await countFailure(req, res);
      throw caller;
    }
    requestContext(req).caller = caller;
    next();
  };
}

/** The key kinds the request's operation accepts, as the roles of its security requirement in the spec. */
export function requireKeyKind(acceptedOf: (req: Request) => readonly KeyKind[]): RequestHandler {
  return (req, _res, next) => {
    const accepted = acceptedOf(req);
    if (!accepted.includes(authenticatedCaller(req).kind))
      throw new HttpError(
        403,
        `This operation needs a ${accepted.join(' or ')} key.`,
        { accepted_key_kinds: [...accepted] },
        // RFC 6750 §3.1: the token is good, but not for this; its scopes here are key kinds.
        { 'WWW-Authenticate': `Bearer realm="api", error="insufficient_scope", scope="${accepted.join(' ')}"` },
      );
    next();
  };
}
