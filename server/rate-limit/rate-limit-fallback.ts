// Counts in a shared store (Redis) that never keep a request waiting on it. Each count waits for the
// store at most `timeoutMs` (rate-limiter-flexible's RLWrapperTimeouts); a count the store did not
// decide in time, or refused (its connection down), is decided by the library's insuranceLimiter:
// a RateLimiterMemory of this process with the same limit. Which counts decide is a state,
// `shared` or `fallback`, told once per change, never once per request.
//
// The fallback applies the full limit in each instance, not the limit divided among them: a
// balancer does not spread one key's requests evenly (a client's keep-alive connection stays on one
// instance), so a divided limit would refuse clients that keep to their limit, for an outage they
// cannot see. The cost is bounded and lasts the outage: n instances let a key through up to n
// times its limit, and an address fail authentication up to n times its limit. What the fallback
// counted stays in memory, and is not added to Redis when it is back: there the counts go on from
// what Redis held.
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  type RateLimiterRes,
  RLWrapperTimeouts,
} from 'rate-limiter-flexible';
import type { Counter, CounterFactory } from './rate-limit.js';

/** Where the counts are decided: in the shared store, or in this process's memory. */
export type CountingState = 'shared' | 'fallback';

/** A limit as the counters take it: `points` per `duration` seconds, under its `keyPrefix`. */
export type Limit = Parameters<CounterFactory>[0];

export interface FallbackOptions {
  /** How long a count waits for the shared store before the fallback decides it. */
  timeoutMs: number;
  /** Where the counts are decided before the first one: `fallback` when the store did not answer at start. */
  initial: CountingState;
  /** Told once per change of where the counts are decided. */
  changed(state: CountingState): void;
  /** Told of each count the fallback decided, by the key prefix of its limit. */
  decided(limit: string): void;
}

/** The options of one count, which the library hands on to the insuranceLimiter: it marks them as its own. */
interface CountOptions {
  decidedByFallback?: boolean;
}

class FallbackLimiter extends RateLimiterMemory {
  override consume(key: string | number, points?: number, options: CountOptions = {}): Promise<RateLimiterRes> {
    options.decidedByFallback = true;
    return super.consume(key, points, options);
  }
}

/** Counters of the shared store's limiters (`shared`), each count decided in time, by the store or by the fallback. */
export function countersWithFallback(
  shared: (limit: Limit) => RateLimiterAbstract,
  options: FallbackOptions,
): CounterFactory {
  let state = options.initial;
  const decidedBy = (next: CountingState) => {
    if (next === state) return;
    state = next;
    options.changed(next);
  };
  return (limit) => {
    const counter = new RLWrapperTimeouts({
      limiter: shared(limit),
      timeoutMs: options.timeoutMs,
      insuranceLimiter: new FallbackLimiter(limit),
    });
    const withFallback: Counter = {
      consume: async (key) => {
        const count: CountOptions = {};
        try {
          return await counter.consume(key, 1, count);
        } finally {
          decidedBy(count.decidedByFallback ? 'fallback' : 'shared');
          if (count.decidedByFallback) options.decided(limit.keyPrefix);
        }
      },
    };
    return withFallback;
  };
}
