// Opening a PostgreSQL connection is bounded on its own: a server that accepts the connection and
// never answers (a database that hangs) fails the request within the connect timeout, with an
// error that counts as the database being unreachable (503), not as a bug.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUTS } from '../../server/store/connection.js';
import { isDatabaseUnavailable } from '../../server/store/database.js';
import { openConnectionPool } from '../../server/store/postgres-pool.js';

let silent: Server;
const accepted = new Set<Socket>();
let url = '';

beforeAll(async () => {
  silent = createServer((socket) => {
    accepted.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  url = `postgres://postgres@127.0.0.1:${(silent.address() as { port: number }).port}/none`;
});

afterAll(async () => {
  for (const socket of accepted) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

describe('the PostgreSQL connection pool', () => {
  it('gives up opening a connection that gets no answer after the connect timeout, as unreachable', async () => {
    const pool = openConnectionPool(url, {
      max: 2,
      stallMs: 200,
      timeouts: DEFAULT_TIMEOUTS,
      onError: () => undefined,
    });
    try {
      const started = performance.now();
      const failure = await pool.connect().then(
        () => undefined,
        (err: unknown) => err,
      );
      const elapsed = performance.now() - started;
      expect(failure).toBeInstanceOf(Error);
      expect(isDatabaseUnavailable(failure)).toBe(true);
      expect(elapsed).toBeGreaterThanOrEqual(150);
      expect(elapsed).toBeLessThan(5000);
      expect(pool.figures()).toMatchObject({ total: 0, waiting: 0, max: 2 });
    } finally {
      await pool.end();
    }
  });
});
