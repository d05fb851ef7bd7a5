// A sampled request's calls that leave the process, recorded into its trace (request-span.ts makes
// them its span's children): a database statement, named by what it does (`keys.byHash`), never by
// its parameters; a rate-limit count in Redis. Wrapped around the driver and the counters only when
// tracing is on; a call handed no trace (a request not sampled, the demo's seeding at start) is
// made as it is, with nothing recorded.
import type { Counter, CounterFactory } from '../rate-limit/rate-limit.js';
import type { CallTrace } from '../store/call-trace.js';
import type { QueryDriver } from '../store/prepared.js';

/**
 * Runs `call` and records it into `trace`. A thrown Error marks it with its class, not its message;
 * anything else thrown is an answer (a limiter's refusal), not a failed call.
 */
async function recorded<T>(
  trace: CallTrace,
  name: string,
  attributes: Readonly<Record<string, string>>,
  call: () => Promise<T>,
): Promise<T> {
  const startedAt = performance.now();
  let errorType: string | undefined;
  try {
    return await call();
  } catch (err) {
    if (err instanceof Error) errorType = err.name;
    throw err;
  } finally {
    trace.push({ name, attributes, startedAt, endedAt: performance.now(), errorType });
  }
}

export function tracedDriver(driver: QueryDriver, system: 'sqlite' | 'postgresql'): QueryDriver {
  return {
    run: (query, trace) =>
      trace
        ? recorded(trace, query.name, { 'db.system.name': system, 'db.query.summary': query.name }, () =>
            driver.run(query),
          )
        : driver.run(query),
    readModifyWrite: (read, decide, trace) =>
      trace
        ? recorded(
            trace,
            `${read.plain.name} then write`,
            {
              'db.system.name': system,
              'db.query.summary': read.plain.name,
              'db.operation.name': 'read-modify-write',
            },
            () => driver.readModifyWrite(read, decide),
          )
        : driver.readModifyWrite(read, decide),
  };
}

/** Rate-limit counters whose each count in Redis, in a sampled request, is recorded. */
export function tracedCounters(counters: CounterFactory): CounterFactory {
  return (limit) => {
    const counter = counters(limit);
    const name = `rate limit ${limit.keyPrefix}`;
    const attributes = { 'db.system.name': 'redis', 'db.operation.name': 'consume' };
    const traced: Counter = {
      consume: (key, trace) =>
        trace ? recorded(trace, name, attributes, () => counter.consume(key)) : counter.consume(key),
    };
    return traced;
  };
}
