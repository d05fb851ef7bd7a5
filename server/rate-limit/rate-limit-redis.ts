// The rate-limit counters shared through Redis, for several instances of the server. Redis never
// holds a request up: a count waits for it at most REDIS_COMMAND_TIMEOUT_MS, a command is refused
// at once (never queued) while the connection is down, and such a count is decided by this process
// alone (rate-limit-fallback.ts). The client reconnects by itself, and the counts are shared again
// from the first one Redis answers in time. A server started while Redis does not answer starts all
// the same, on the fallback, and says so in one line.
import type { Logger } from 'pino';
import type { SharedRateLimitCounters } from './rate-limit.js';
import { type CountingState, countersWithFallback } from './rate-limit-fallback.js';

/** The longest wait between two attempts to reconnect: Redis back is used again within about this. */
const RECONNECT_MAX_MS = 500;
/** A connection attempt that takes longer is given up, and tried again; at start, how long the server waits for Redis. */
const CONNECT_TIMEOUT_MS = 1000;
/**
 * Commands sent and not yet answered, at most: past it a count goes to the fallback at once, so that
 * a Redis that keeps its connection open and answers nothing holds no growing queue.
 */
const MAX_PENDING_COMMANDS = 1000;

export interface RedisCountersOptions {
  url: string;
  /** How long a count waits for Redis before the fallback decides it (REDIS_COMMAND_TIMEOUT_MS). */
  commandTimeoutMs: number;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Told of each count the fallback decided, by the key prefix of its limit. */
  onFallback?: (limit: string) => void;
  prefix?: string;
}

export const FALLBACK_MESSAGE =
  'rate limit: Redis does not answer; each instance counts in its own memory, with the full limit, until it does';
export const SHARED_MESSAGE = 'rate limit: Redis answers again; the counts are shared again';

/** Counters in Redis, shared by every instance pointed at the same Redis, on one connection. */
export async function connectRedisRateLimitCounters({
  url,
  commandTimeoutMs,
  logger,
  onFallback,
  prefix = 'rate-limit:',
}: RedisCountersOptions): Promise<SharedRateLimitCounters> {
  // Loaded only when Redis is configured, so that a server without it does not load them at start.
  const [{ createClient }, { RateLimiterRedis }] = await Promise.all([
    import('redis'),
    import('rate-limiter-flexible'),
  ]);
  const client = createClient({
    url,
    disableOfflineQueue: true,
    commandsQueueMaxLength: MAX_PENDING_COMMANDS,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, RECONNECT_MAX_MS),
    },
  });
  let lastError = 'not connected yet';
  client.on('error', (err: Error & { code?: string }) => {
    lastError = err.code ?? err.message;
  });
  const connected = await new Promise<boolean>((resolve) => {
    const settle = (ready: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      client.off('error', onError);
      resolve(ready);
    };
    const onReady = () => settle(true);
    const onError = () => settle(false);
    const timer = setTimeout(() => settle(false), CONNECT_TIMEOUT_MS);
    client.on('ready', onReady);
    client.on('error', onError);
    // It resolves once connected, however long that takes: the start does not wait for it.
    client.connect().catch(() => undefined);
  });
  const cause = () => (client.isReady ? `no answer within ${commandTimeoutMs} ms` : `connection down (${lastError})`);
  if (!connected) logger.warn({ cause: `at start: ${cause()}` }, FALLBACK_MESSAGE);
  const changed = (state: CountingState) => {
    if (state === 'fallback') logger.warn({ cause: cause() }, FALLBACK_MESSAGE);
    else logger.info(SHARED_MESSAGE);
  };
  return {
    counters: countersWithFallback(
      ({ keyPrefix, ...limit }) =>
        new RateLimiterRedis({
          storeClient: client,
          useRedisPackage: true,
          rejectIfRedisNotReady: true,
          keyPrefix: `${prefix}${keyPrefix}`,
          ...limit,
        }),
      {
        timeoutMs: commandTimeoutMs,
        initial: connected ? 'shared' : 'fallback',
        changed,
        decided: (limit) => onFallback?.(limit),
      },
    ),
    // Closed gracefully when connected (the commands sent get their answers), dropped otherwise.
    close: async () => (client.isReady ? void (await client.close()) : client.destroy()),
  };
}
