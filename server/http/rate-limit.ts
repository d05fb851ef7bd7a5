// With express-rate-limit: requests per calling key and window, with IETF RateLimit headers on
// every answer; and failed authentications per client address. Past a limit, 429 in the envelope
// with Retry-After. Counters live in memory, or in Redis when several instances must share them.
// Their keys are never a value a client picks per request: a key that authenticated, or the
// connection's address (a header only when TRUST_PROXY names the proxy that sets it); each counter
// lives one window.
import type { Request, RequestHandler, Response } from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import { HttpError } from './errors.js';
import { isWarmUpRequest } from './warm-up.js';

/** For load tests and benchmarks: the limiter runs, with a limit no test reaches. */
export const UNREACHABLE_RATE_LIMIT: RateLimitOptions = { windowMs: 60_000, limit: 1_000_000_000 };

export interface RateLimitOptions {
  windowMs: number;
  limit: number;
  /** Shared counters; a fresh memory store when absent. */
  store?: Store;
  /** Told of each request refused (the metrics' count). */
  onRefused?: () => void;
}

/** Seconds until the window of `info` ends: at least 1, so that a client never retries at once. */
export function retryAfterSeconds(info: { resetTime?: Date } | undefined, windowMs: number): number {
  return Math.max(1, Math.ceil(((info?.resetTime?.getTime() ?? Date.now() + windowMs) - Date.now()) / 1000));
}

export function rateLimitPerKey({ windowMs, limit, store, onRefused }: RateLimitOptions): RequestHandler {
  return rateLimit({
    windowMs,
    limit,
    identifier: 'per-key',
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    ...(store && { store }),
    // Counted after authentication, by key: never by address, never for anonymous requests.
    keyGenerator: (_req, res) => res.locals.caller.keyId,
    // The check that no request is counted twice keeps a map of requests; the limiter is mounted once
    // (server/request-pipeline.ts), which the rate-limit tests check by counting.
    validate: { singleCount: false },
    // If the shared store fails, serve rather than refuse everyone; the failure is logged upstream.
    passOnStoreError: true,
    handler: (req) => {
      onRefused?.();
      const seconds = retryAfterSeconds((req as { rateLimit?: { resetTime?: Date } }).rateLimit, windowMs);
      throw new HttpError(429, 'Too many requests for this key; retry after the delay in Retry-After.', null, {
        'Retry-After': String(seconds),
      });
    },
  });
}

/** Counts one failed authentication of the request's client; rejects with a 429 past the limit. */
export type CountAuthFailure = (req: Request, res: Response) => Promise<void>;

/**
 * Failed authentications per client address (`req.ip`: the socket's address, or what `trust proxy`
 * makes of X-Forwarded-For; IPv6 addresses by /56), so that no address can spray keys at full
 * speed. Only failures count: a request with a good key is never refused by it.
 */
export function authFailureThrottle({ windowMs, limit, store, onRefused }: RateLimitOptions): CountAuthFailure {
  const limiter = rateLimit({
    windowMs,
    limit,
    identifier: 'auth-failures',
    requestPropertyName: 'authFailures',
    skip: (req) => isWarmUpRequest(req),
    // The 401s it lets through carry no rate-limit headers; a 429 carries Retry-After.
    standardHeaders: false,
    legacyHeaders: false,
    ...(store && { store }),
    // README, "Security", says how to set TRUST_PROXY; the library's own warning would be a stack trace.
    validate: { xForwardedForHeader: false },
    passOnStoreError: true,
    handler: (req) => {
      onRefused?.();
      const seconds = retryAfterSeconds((req as { authFailures?: { resetTime?: Date } }).authFailures, windowMs);
      throw new HttpError(
        429,
        'Too many failed authentications from this address; retry after the delay in Retry-After.',
        null,
        { 'Retry-After': String(seconds) },
      );
    },
  });
  return (req, res) =>
    new Promise<void>((resolve, reject) => {
      void limiter(req, res, (err?: unknown) => (err === undefined ? resolve() : reject(err)));
    });
}

export interface SharedRateLimitStores {
  /** Requests per key. */
  perKey: Store;
  /** Failed authentications per address. */
  authFailures: Store;
  close(): Promise<void>;
}
