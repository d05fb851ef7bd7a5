// The rate-limit stores shared through Redis, for several instances of the server.
import type { RedisReply } from 'rate-limit-redis';
import type { SharedRateLimitStores } from './rate-limit.js';

/** Redis-backed stores, shared by every instance pointed at the same Redis, on one connection. */
export async function connectRedisRateLimitStores(url: string, prefix = 'rate-limit:'): Promise<SharedRateLimitStores> {
  // Loaded only when Redis is configured, so that a server without it does not load it at start.
  const [{ createClient }, { RedisStore }] = await Promise.all([import('redis'), import('rate-limit-redis')]);
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  const storeWith = (storePrefix: string) =>
    new RedisStore({
      prefix: storePrefix,
      sendCommand: (...args: string[]) => client.sendCommand(args) as Promise<RedisReply>,
    });
  return {
    perKey: storeWith(prefix),
    authFailures: storeWith(`${prefix}auth-failures:`),
    close: async () => void (await client.quit()),
  };
}
