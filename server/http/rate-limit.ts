// Requests per calling key and window, with express-rate-limit: IETF RateLimit headers on every
// answer, 429 in the envelope with Retry-After past the limit. Counters live in memory, or in
// Redis when several instances must share them.
import type { RequestHandler } from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import type { RedisReply } from 'rate-limit-redis';
import { HttpError } from './errors.js';

/** For load tests and benchmarks: the limiter runs, with a limit no test reaches. */
export const UNREACHABLE_RATE_LIMIT: RateLimitOptions = { windowMs: 60_000, limit: 1_000_000_000 };

export interface RateLimitOptions {
  windowMs: number;
  limit: number;
  /** Shared counters; a fresh memory store when absent. */
  store?: Store;
}

export function rateLimitPerKey({ windowMs, limit, store }: RateLimitOptions): RequestHandler {
  return rateLimit({
    windowMs,
    limit,
    identifier: 'per-key',
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    ...(store && { store }),
    // Counted after authentication, by key: never by address, never for anonymous requests.
    keyGenerator: (_req, res) => res.locals.caller.keyId,
    // The check that no request is counted twice keeps a map per request; the limiter is mounted once
    // per route (server/app.ts), which the rate-limit tests check by counting.
    validate: { singleCount: false },
    // If the shared store fails, serve rather than refuse everyone; the failure is logged upstream.
    passOnStoreError: true,
    handler: (req) => {
      const resetTime = (req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const seconds = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + windowMs) - Date.now()) / 1000));
      throw new HttpError(429, 'Too many requests for this key; retry after the delay in Retry-After.', null, {
        'Retry-After': String(seconds),
      });
    },
  });
}

export interface SharedRateLimitStore {
  store: Store;
  close(): Promise<void>;
}

/** A Redis-backed store, shared by every instance pointed at the same Redis. */
export async function connectRedisRateLimitStore(url: string, prefix = 'rate-limit:'): Promise<SharedRateLimitStore> {
  // Loaded only when Redis is configured, so that a server without it does not load it at start.
  const [{ createClient }, { RedisStore }] = await Promise.all([import('redis'), import('rate-limit-redis')]);
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  const store = new RedisStore({
    prefix,
    sendCommand: (...args: string[]) => client.sendCommand(args) as Promise<RedisReply>,
  });
  return { store, close: async () => void (await client.quit()) };
}
