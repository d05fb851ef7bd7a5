// Child spans of the request's span for each call that leaves the process: a database statement,
// named by what it does (`keys.byHash`), never by its parameters; a rate-limit count in Redis.
// Wrapped around the driver and the counters only when tracing is on: off, they are not in the path.
import { type Attributes, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import type { Counter, CounterFactory } from '../http/rate-limit.js';
import type { QueryDriver } from '../store/prepared.js';

/**
 * Runs `call` in a client span of `name`. A thrown Error marks the span with its class, not its
 * message; anything else thrown is an answer (a limiter's refusal), not a failed call. Outside a
 * traced request (seeding the demo at start, a probe) the call makes no span: no trace of one span.
 */
async function inSpan<T>(tracer: Tracer, name: string, attributes: Attributes, call: () => Promise<T>): Promise<T> {
  if (!trace.getActiveSpan()) return call();
  const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes });
  try {
    return await call();
  } catch (err) {
    if (err instanceof Error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute('error.type', err.name);
    }
    throw err;
  } finally {
    span.end();
  }
}

export function tracedDriver(driver: QueryDriver, tracer: Tracer, system: 'sqlite' | 'postgresql'): QueryDriver {
  return {
    run: (query) =>
      inSpan(tracer, query.name, { 'db.system.name': system, 'db.query.summary': query.name }, () => driver.run(query)),
    readModifyWrite: (read, decide) =>
      inSpan(
        tracer,
        `${read.plain.name} then write`,
        { 'db.system.name': system, 'db.query.summary': read.plain.name, 'db.operation.name': 'read-modify-write' },
        () => driver.readModifyWrite(read, decide),
      ),
  };
}

/** Rate-limit counters whose each count in Redis is a span. */
export function tracedCounters(counters: CounterFactory, tracer: Tracer): CounterFactory {
  return (limit) => {
    const counter = counters(limit);
    const name = `rate limit ${limit.keyPrefix}`;
    const attributes = { 'db.system.name': 'redis', 'db.operation.name': 'consume' };
    const traced: Counter = { consume: (key) => inSpan(tracer, name, attributes, () => counter.consume(key)) };
    return traced;
  };
}
