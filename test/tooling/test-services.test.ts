// npm test uses PostgreSQL and Redis where they answer on their default loopback ports, unless
// TEST_POSTGRES_URL / TEST_REDIS_URL say otherwise (test/support/runner/services.ts, read by vitest.config.ts).
import { describe, expect, it } from 'vitest';
import { findTestServices } from '../support/runner/services.js';

const nowhere = { postgres: 'postgres://postgres@127.0.0.1:1/postgres', redis: 'redis://127.0.0.1:1' };

describe('the services of a test run', () => {
  it('are the ones the variables name, and off where a variable is empty', async () => {
    const env = { TEST_POSTGRES_URL: 'postgres://db.example.com/test', TEST_REDIS_URL: '' };
    expect(await findTestServices(env, nowhere)).toEqual([
      'PostgreSQL suites: on TEST_POSTGRES_URL.',
      'Redis suites: off (TEST_REDIS_URL is empty).',
    ]);
    expect(env).toEqual({ TEST_POSTGRES_URL: 'postgres://db.example.com/test', TEST_REDIS_URL: '' });
  });

  it('are skipped, with the reason, where nothing answers and no variable is set', async () => {
    const env: NodeJS.ProcessEnv = {};
    expect(await findTestServices(env, nowhere)).toEqual([
      `PostgreSQL suites: skipped, nothing answers at ${nowhere.postgres} and TEST_POSTGRES_URL is not set.`,
      `Redis suites: skipped, nothing answers at ${nowhere.redis} and TEST_REDIS_URL is not set.`,
    ]);
    expect(env).toEqual({});
  });

  it.skipIf(!process.env.TEST_POSTGRES_URL || !process.env.TEST_REDIS_URL)(
    `are found where they answer, and named in the variables${process.env.TEST_POSTGRES_URL && process.env.TEST_REDIS_URL ? '' : ' (skipped: no PostgreSQL and Redis to find)'}`,
    async () => {
      const env: NodeJS.ProcessEnv = {};
      const running = { postgres: process.env.TEST_POSTGRES_URL ?? '', redis: process.env.TEST_REDIS_URL ?? '' };
      const lines = await findTestServices(env, running);
      expect(env).toEqual({ TEST_POSTGRES_URL: running.postgres, TEST_REDIS_URL: running.redis });
      expect(lines[0]).toBe(
        `PostgreSQL suites: on ${running.postgres}, which answers (set TEST_POSTGRES_URL to use another, or to nothing to skip them).`,
      );
    },
  );
});
