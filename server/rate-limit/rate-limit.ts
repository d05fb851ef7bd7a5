// With rate-limiter-flexible: requests per calling key and window, with IETF RateLimit headers
// (draft 8) on every answer; and failed authentications per client address. Past a limit, 429 in
// the envelope with Retry-After. Counters live in this process's memory, or in Redis when several
// instances must share them (rate-limit-redis.ts). Their keys are never a value a client picks per
// request: a key that authenticated, or the connection's address (a header only when TRUST_PROXY
// names the proxy that sets it); each counter lives one window.
import type { Request, RequestHandler, Response } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { addressKey, retryAfterSeconds } from '../domain/rate-limit-rules.js';
import { HttpError } from '../http/errors.js';
import { authenticatedCaller, callTraceOf } from '../http/request-context.js';
import type { CallTrace } from '../store/call-trace.js';

/** For load tests and benchmarks: the limiter runs, with a limit no test reaches. */
export const UNREACHABLE_RATE_LIMIT: RateLimitOptions = { windowMs: 60_000, limit: 1_000_000_000 };

/**
 * Counts a request of a key (or a failure of an address): resolves under the limit, rejects with a
 * RateLimiterRes past it. A `trace` given is a sampled request's: traced counters record the count there.
 */
export interface Counter {
  consume(key: string, trace?: CallTrace): Promise<RateLimiterRes>;
}

/** Makes the counters of one limit: `points` per `duration` seconds, under its own `keyPrefix`. */
export type CounterFactory = (limit: { points: number; duration: number; keyPrefix: string }) => Counter;

export interface RateLimitOptions {
  windowMs: number;
  limit: number;
  /** Shared counters (Redis); in this process's memory when absent. */
  counters?: CounterFactory;
  /** Told of each request refused (the metrics' count). */
  onRefused?: () => void;
}

const inMemory: CounterFactory = (limit) => {
  const limiter = new RateLimiterMemory(limit);
  return { consume: (key) => limiter.consume(key) };
};

/** A window of whole seconds, as the RateLimit headers and Redis's expiry count it. */
const windowSeconds = (windowMs: number) => Math.max(1, Math.ceil(windowMs / 1000));

/**
 * The count of `key`: the counter's answer under the limit or past it, or undefined when the
 * counter failed (its store unreachable): the request is then served, not refused, and the
 * failure is printed.
 */
async function count(
  counter: Counter,
  key: string,
  trace: CallTrace | undefined,
): Promise<{ res: RateLimiterRes; over: boolean } | undefined> {
  try {
    return { res: await counter.consume(key, trace), over: false };
  } catch (err) {
    if (err instanceof RateLimiterRes) return { res: err, over: true };
    console.error('rate limit: the counters cannot be reached; the request is served without a limit.', err);
    return undefined;
  }
}

export function rateLimitPerKey({ windowMs, limit, counters = inMemory, onRefused }: RateLimitOptions): RequestHandler {
  const durationSec = windowSeconds(windowMs);
  const counter = counters({ points: limit, duration: durationSec, keyPrefix: 'per-key' });
  const policy = `"per-key"; q=${limit}; w=${durationSec}`;
  return async (req, res, next) => {
    // Counted after authentication, by key: never by address, never for anonymous requests.
    const counted = await count(counter, authenticatedCaller(req).keyId, callTraceOf(req));
    if (!counted) return next();
    const seconds = retryAfterSeconds(counted.res.msBeforeNext, windowMs);
    res.setHeader('RateLimit-Policy', policy);
    res.append('RateLimit', `"per-key"; r=${counted.res.remainingPoints}; t=${seconds}`);
    if (!counted.over) return next();
    onRefused?.();
    next(
      new HttpError(429, 'Too many requests for this key; retry after the delay in Retry-After.', null, {
        'Retry-After': String(seconds),
      }),
    );
  };
}

/** Counts one failed authentication of the request's client; rejects with a 429 past the limit. */
export type CountAuthFailure = (req: Request, res: Response) => Promise<void>;

/**
 * Failed authentications per client address (`req.ip`: the socket's address, or what `trust proxy`
 * makes of X-Forwarded-For; IPv6 addresses by /56), so that no address can spray keys at full
 * speed. Only failures count: a request with a good key is never refused by it. The 401s it lets
 * through carry no rate-limit headers; a 429 carries Retry-After.
 */
export function authFailureThrottle({
  windowMs,
  limit,
  counters = inMemory,
  onRefused,
}: RateLimitOptions): CountAuthFailure {
  const counter = counters({ points: limit, duration: windowSeconds(windowMs), keyPrefix: 'auth-failures' });
  return async (req) => {
    const counted = await count(counter, addressKey(req.ip ?? ''), callTraceOf(req));
    if (!counted?.over) return;
    onRefused?.();
    throw new HttpError(
      429,
      'Too many failed authentications from this address; retry after the delay in Retry-After.',
      null,
      { 'Retry-After': String(retryAfterSeconds(counted.res.msBeforeNext, windowMs)) },
    );
  };
}

export interface SharedRateLimitCounters {
  /** Counters of both limits, in Redis. */
  counters: CounterFactory;
  close(): Promise<void>;
}
