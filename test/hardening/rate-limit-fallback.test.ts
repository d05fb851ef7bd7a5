// The counts of a shared store that never keep a request waiting on it (server/rate-limit/rate-limit-fallback.ts):
// a store that hangs or refuses hands the count to this process's memory, with the full limit; one
// change of state is told once; the store's own answers (under or over the limit) are kept. Against
// real Redis, taken away and slowed: redis-outage.test.ts.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../../server/metrics/metrics.js';
import { type CountingState, countersWithFallback, type Limit } from '../../server/rate-limit/rate-limit-fallback.js';
import { call, createWorkspace, spec, startTestServer, type TestServer } from '../support/server.js';

type Behaviour = 'answer' | 'refuse' | 'hang';

/** A shared store whose behaviour the test sets: it answers (counting in memory of its own), refuses at once, or never answers. */
class Store {
  behaviour: Behaviour = 'answer';
  readonly limiters: Limit[] = [];
  readonly factory = (limit: Limit) => {
    this.limiters.push(limit);
    const store = this;
    return new (class extends RateLimiterMemory {
      override consume(key: string | number, points?: number, options?: Record<string, unknown>) {
        if (store.behaviour === 'refuse') return Promise.reject(new Error('The client is offline'));
        if (store.behaviour === 'hang') return new Promise<RateLimiterRes>(() => undefined);
        return super.consume(key, points, options);
      }
    })(limit);
  };
}

function watched(initial: CountingState = 'shared') {
  const store = new Store();
  const changes: CountingState[] = [];
  const decided: string[] = [];
  const counters = countersWithFallback(store.factory, {
    timeoutMs: 20,
    initial,
    changed: (state) => changes.push(state),
    decided: (limit) => decided.push(limit),
  });
  return { store, changes, decided, counters };
}

const limit = { points: 3, duration: 60, keyPrefix: 'per-key' };

/** The remaining points of each count of `key`, or 'over' for a count refused past the limit. */
async function counts(counter: { consume(key: string): Promise<RateLimiterRes> }, key: string, times: number) {
  const results: (number | 'over')[] = [];
  for (let i = 0; i < times; i++) {
    try {
      results.push((await counter.consume(key)).remainingPoints);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      results.push('over');
    }
  }
  return results;
}

describe('counts with a fallback', () => {
  it("are the store's while it answers in time: its count, under the limit and past it, and no change told", async () => {
    const { store, changes, decided, counters } = watched();
    const counter = counters(limit);
    expect(store.limiters).toEqual([limit]);
    expect(await counts(counter, 'a', 5)).toEqual([2, 1, 0, 'over', 'over']);
    expect(changes).toEqual([]);
    expect(decided).toEqual([]);
  });

  it('are decided by memory, with the full limit, when the store never answers: the wait ends at the timeout', async () => {
    const { store, changes, decided, counters } = watched();
    const counter = counters(limit);
    store.behaviour = 'hang';
    expect(await counts(counter, 'a', 5)).toEqual([2, 1, 0, 'over', 'over']);
    expect(changes).toEqual(['fallback']);
    expect(decided).toEqual(['per-key', 'per-key', 'per-key', 'per-key', 'per-key']);
  });

  it('are decided by memory when the store refuses, and by the store again once it answers, each change told once', async () => {
    const { store, changes, decided, counters } = watched();
    const counter = counters({ ...limit, keyPrefix: 'auth-failures' });
    expect(await counts(counter, 'a', 1)).toEqual([2]);
    store.behaviour = 'refuse';
    expect(await counts(counter, 'a', 2)).toEqual([2, 1]);
    store.behaviour = 'answer';
    // The store's count goes on from what it held: one before the outage.
    expect(await counts(counter, 'a', 3)).toEqual([1, 0, 'over']);
    expect(changes).toEqual(['fallback', 'shared']);
    expect(decided).toEqual(['auth-failures', 'auth-failures']);
  });

  it('keep their state across the limits: one change told for both, and memory counts per limit and key', async () => {
    const { store, changes, counters } = watched();
    const perKey = counters(limit);
    const failures = counters({ points: 1, duration: 60, keyPrefix: 'auth-failures' });
    store.behaviour = 'refuse';
    expect(await counts(perKey, 'a', 1)).toEqual([2]);
    expect(await counts(perKey, 'b', 1)).toEqual([2]);
    expect(await counts(failures, 'a', 2)).toEqual([0, 'over']);
    expect(changes).toEqual(['fallback']);
  });

  it('start on the fallback when the store did not answer at start, and tell the first count the store answers', async () => {
    const { changes, decided, counters } = watched('fallback');
    expect(await counts(counters(limit), 'a', 1)).toEqual([2]);
    expect(changes).toEqual(['shared']);
    expect(decided).toEqual([]);
  });
});

describe('a server whose store does not answer', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('serves each key up to its limit, then 429 with Retry-After and the RateLimit headers, counted in memory', async () => {
    const { store, counters, decided } = watched();
    store.behaviour = 'hang';
    server = await startTestServer({ rateLimit: { windowMs: 60_000, limit: 2, counters } });
    const workspace = await createWorkspace(server.store, server.clock.now());
    const list = () =>
      call(server as TestServer, 'GET', '/api/v1/presets/none/versions', { key: workspace.standardKey });
    const answers = [await list(), await list(), await list()];
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 429]);
    expect(answers.map((answer) => answer.headers.get('ratelimit'))).toEqual([
      '"per-key"; r=1; t=60',
      '"per-key"; r=0; t=60',
      '"per-key"; r=0; t=60',
    ]);
    expect(answers[2]?.headers.get('retry-after')).toBe('60');
    expect(decided).toHaveLength(3);
    expect(server.serverErrors()).toEqual([]);
  });
});

describe('the metric of the fallback', () => {
  it('counts the counts it decided by limit, both series there from the start', async () => {
    const metrics = createMetrics(spec);
    const series = async () =>
      (await metrics.registry.metrics()).split('\n').filter((line) => line.startsWith('rate_limit_fallback_total'));
    expect(await series()).toEqual([
      'rate_limit_fallback_total{limit="rate_limit"} 0',
      'rate_limit_fallback_total{limit="auth_failures"} 0',
    ]);
    metrics.countedByFallback('rate_limit');
    metrics.countedByFallback('rate_limit');
    metrics.countedByFallback('auth_failures');
    expect(await series()).toEqual([
      'rate_limit_fallback_total{limit="rate_limit"} 2',
      'rate_limit_fallback_total{limit="auth_failures"} 1',
    ]);
  });
});
