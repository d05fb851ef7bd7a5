// The rate-limit counters shared through Redis, for several instances of the server.
import type { SharedRateLimitCounters } from './rate-limit.js';

/** Counters in Redis, shared by every instance pointed at the same Redis, on one connection. */
export async function connectRedisRateLimitCounters(
  url: string,
  prefix = 'rate-limit:',
): Promise<SharedRateLimitCounters> {
  // Loaded only when Redis is configured, so that a server without it does not load them at start.
  const [{ createClient }, { RateLimiterRedis }] = await Promise.all([
    import('redis'),
    import('rate-limiter-flexible'),
  ]);
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  return {
    counters: ({ keyPrefix, ...limit }) =>
      new RateLimiterRedis({
        storeClient: client,
        useRedisPackage: true,
        keyPrefix: `${prefix}${keyPrefix}`,
        ...limit,
      }),
    close: async () => void (await client.quit()),
  };
}
