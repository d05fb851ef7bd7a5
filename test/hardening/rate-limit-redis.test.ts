// Three server processes sharing their rate-limit counters through Redis: the limits (per key, and
// failed authentications per address) hold across them. Runs when TEST_REDIS_URL names a Redis
// server (CI starts one).

import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../server/domain/secrets.js';
import { openStore } from '../../server/store/store.js';
import { type ServerProcess, startServerProcess } from '../support/process.js';
import { provision } from '../support/server.js';

const redisUrl = process.env.TEST_REDIS_URL;
const LIMIT = 30;
const AUTH_FAILURE_LIMIT = 10;
let processes: ServerProcess[] = [];
let apiKey = '';

describe.skipIf(!redisUrl)(
  `rate limit shared through Redis${redisUrl ? '' : ' (skipped: TEST_REDIS_URL is not set)'}`,
  () => {
    beforeAll(async () => {
      const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'redis-limit-')), 'api.db')}`;
      const secretsKey = randomBytes(32);
      const store = await openStore(databaseUrl, createSecretBox(secretsKey));
      const workspace = await store.workspaces.create('Limited', new Date());
      apiKey = (
        await provision.createKey(store, { workspaceId: workspace.id, name: 'Busy', kind: 'standard' }, new Date())
      ).rawKey;
      await store.close();
      const env = {
        DATABASE_URL: databaseUrl,
        SECRETS_KEY: secretsKey.toString('base64'),
        REDIS_URL: redisUrl ?? '',
        RATE_LIMIT_MAX: String(LIMIT),
        RATE_LIMIT_WINDOW_MS: '60000',
        AUTH_FAILURE_LIMIT: String(AUTH_FAILURE_LIMIT),
      };
      // Failures are counted by address, 127.0.0.1 here: a run of a minute ago must not count.
      const redis = createClient({ url: redisUrl ?? '' });
      await redis.connect();
      const counted = await redis.keys('rate-limit:auth-failures:*');
      if (counted.length > 0) await redis.del(counted);
      await redis.quit();
      // One after the other: the first migrates the database file.
      for (let i = 0; i < 3; i++) processes.push(await startServerProcess(env));
    }, 60_000);

    afterAll(async () => {
      await Promise.all(processes.map((p) => p.stop()));
      processes = [];
    });

    it(`lets ${LIMIT} requests of one key through three processes in all, then answers 429 from every one`, async () => {
      const statuses: number[] = [];
      for (let i = 0; i < LIMIT + 15; i++) {
        const response = await fetch(`${processes[i % 3]?.url}/api/v1/presets/none/versions`, {
          headers: { authorization: `Bearer ${apiKey}` },
        });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      expect(statuses.filter((s) => s === 404)).toHaveLength(LIMIT);
      expect(statuses.slice(LIMIT)).toEqual(Array.from({ length: 15 }, () => 429));
      console.log(`rate limit through Redis: ${LIMIT + 15} requests over 3 processes, ${LIMIT} served, 15 limited`);
    }, 60_000);

    it(`counts failed authentications of one address across the three processes: ${AUTH_FAILURE_LIMIT} 401s, then 429`, async () => {
      const statuses: number[] = [];
      for (let i = 0; i < AUTH_FAILURE_LIMIT + 5; i++) {
        const response = await fetch(`${processes[i % 3]?.url}/api/v1/presets/none/versions`, {
          headers: { authorization: `Bearer sk-or-v1-${randomBytes(32).toString('hex')}` },
        });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      expect(statuses).toEqual([
        ...Array.from({ length: AUTH_FAILURE_LIMIT }, () => 401),
        ...Array.from({ length: 5 }, () => 429),
      ]);
    }, 60_000);
  },
);
