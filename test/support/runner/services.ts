// The services the PostgreSQL and Redis suites need, found before the run: TEST_POSTGRES_URL and
// TEST_REDIS_URL when set (an empty value turns a suite off), otherwise PostgreSQL and Redis on
// their default loopback ports when they answer. One line says what the run uses.
import pg from 'pg';
import { createClient } from 'redis';

export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function redisAnswers(url: string): Promise<boolean> {
  const client = createClient({ url, socket: { connectTimeout: 1000, reconnectStrategy: false } });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    if (client.isOpen) await client.quit().catch(() => undefined);
  }
}

/**
 * Sets TEST_POSTGRES_URL and TEST_REDIS_URL in `env` to the default loopback services when they are
 * unset and the services answer; returns the lines that say what the run uses.
 */
export async function findTestServices(
  env: NodeJS.ProcessEnv,
  defaults = { postgres: DEFAULT_POSTGRES_URL, redis: DEFAULT_REDIS_URL },
): Promise<string[]> {
  const found = await Promise.all(
    [
      ['TEST_POSTGRES_URL', 'PostgreSQL', defaults.postgres, postgresAnswers] as const,
      ['TEST_REDIS_URL', 'Redis', defaults.redis, redisAnswers] as const,
    ].map(async ([name, service, url, answers]) => {
      if (env[name] !== undefined) {
        return env[name] === '' ? `${service} suites: off (${name} is empty).` : `${service} suites: on ${name}.`;
      }
      if (!(await answers(url))) return `${service} suites: skipped, nothing answers at ${url} and ${name} is not set.`;
      env[name] = url;
      return `${service} suites: on ${url}, which answers (set ${name} to use another, or to nothing to skip them).`;
    }),
  );
  return found;
}
