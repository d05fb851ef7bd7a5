// The HTTP checks of `npm run conformance -- --negative`, held to what they promise: against this
// server every one passes (test/conformance/command.test.ts runs them in the whole run), and against
// the benchmark's straightforward implementation of the same operations (bench/servers/
// straightforward.ts), which answers what the contract asks but not what the RFCs add, they report
// each requirement it misses, by name.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_SCRIPTS } from '../../bench/shared/hostile.js';
import { runToEnd, type Started, startServer, stopServer } from '../../bench/shared/processes.js';
import { httpChecks } from '../../scripts/conformance/http-checks.js';
import { hashApiKey } from '../../server/domain/api-keys.js';

let straightforward: Started;
let seeded: { managementKey: string; destinationId: string };

beforeAll(async () => {
  const secretsKey = randomBytes(32).toString('hex');
  const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'http-checks-db-')), 'api.db')}`;
  const env = { BENCH_SECRETS_KEY: secretsKey };
  seeded = JSON.parse(
    await runToEnd('bench/servers/seed.ts', [databaseUrl, '50'], env, SOURCE_SCRIPTS.nodeFlags),
  ) as typeof seeded;
  straightforward = await startServer('bench/servers/straightforward.ts', [databaseUrl], env, SOURCE_SCRIPTS.nodeFlags);
}, 120_000);

afterAll(async () => {
  if (straightforward) await stopServer(straightforward);
});

describe('the HTTP checks against the straightforward implementation', () => {
  it('report what it misses, each by its requirement, and nothing it does', async () => {
    const outcomes = await httpChecks(
      {
        baseUrl: `http://127.0.0.1:${straightforward.port}/api/v1`,
        key: seeded.managementKey,
        destination: seeded.destinationId,
        preset: 'small',
        seed: 1,
        requests: 1,
        negative: true,
      },
      hashApiKey(seeded.managementKey),
    );
    const missed = outcomes.filter((outcome) => outcome.problems.length > 0).map((outcome) => outcome.request.label);
    expect(missed).toEqual([
      "HTTP: a key's data is answered with Cache-Control: no-store (RFC 9111 §5.2.2.5; OWASP REST Security)",
      'HTTP: a request target in absolute form is served (RFC 9112 §3.2.2: a server MUST accept it)',
      'HTTP: a 401 for a token that was sent says error="invalid_token" (RFC 6750 §3.1)',
      'HTTP: HEAD answers as GET would, without a body (RFC 9110 §9.3.2)',
      "HTTP: a destination's configuration is answered with Cache-Control: no-store (RFC 9111 §5.2.2.5)",
    ]);
    // What it gets right, it is not blamed for: Express answers If-None-Match itself, and its
    // error handler keeps a 4xx a library raised.
    expect(outcomes.length - missed.length).toBeGreaterThanOrEqual(6);
  });
});
