// Every PATCH the benchmarks send as a write changes the row: ten connections at once, as the
// benchmark sends them, each answer with an ETag no other answer has. The no-op PATCH, which the
// benchmark reports on its own, is the control: past its first answer it changes nothing.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_SCRIPTS } from '../../bench/shared/hostile.js';
import { NO_OP_PATCH_BODY, writingPatchBody } from '../../bench/shared/patch-bodies.js';
import { runToEnd, type Started, startServer, stopServer } from '../../bench/shared/processes.js';
import { requestsOf, type Scenario } from '../../bench/shared/scenarios.js';

const REQUESTS = 400;
let subject: Started;
let seeded: { managementKey: string; destinationId: string };

beforeAll(async () => {
  const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'writing-patches-db-')), 'api.db')}`;
  const env = { BENCH_SECRETS_KEY: randomBytes(32).toString('hex') };
  seeded = JSON.parse(
    await runToEnd('bench/servers/seed.ts', [databaseUrl, '0'], env, SOURCE_SCRIPTS.nodeFlags),
  ) as typeof seeded;
  subject = await startServer('bench/servers/subject.ts', [databaseUrl], env, SOURCE_SCRIPTS.nodeFlags);
}, 120_000);
afterAll(async () => {
  if (subject) await stopServer(subject);
});

/** The status and ETag of every answer to `amount` requests of the scenario over ten connections. */
async function answers(
  scenario: Omit<Scenario, 'name' | 'method' | 'path'>,
): Promise<{ status: number; etag: string }[]> {
  const seen: { status: number; etag: string }[] = [];
  const path = `/api/v1/observability/destinations/${seeded.destinationId}`;
  const requests = requestsOf({ name: 'PATCH', method: 'PATCH', path, ...scenario }, seeded.managementKey).map(
    (request) => ({
      ...request,
      onResponse: (status: number, _body: string, _context: object, headers?: IncomingHttpHeaders) => {
        // autocannon keeps the header names as the server wrote them.
        const name = Object.keys(headers ?? {}).find((header) => header.toLowerCase() === 'etag') ?? 'etag';
        seen.push({ status, etag: String(headers?.[name] ?? '') });
      },
    }),
  );
  await autocannon({ url: `http://127.0.0.1:${subject.port}`, connections: 10, amount: REQUESTS, requests });
  return seen;
}

describe("the benchmark's PATCHes", () => {
  it('write the row every time: each answer has an ETag of its own', async () => {
    const seen = await answers({ body: writingPatchBody });
    expect(seen).toHaveLength(REQUESTS);
    expect(seen.filter(({ status, etag }) => status !== 200 || !etag.startsWith('"'))).toEqual([]);
    expect(new Set(seen.map(({ etag }) => etag)).size).toBe(REQUESTS);
  });

  it('but the no-op, which past its first answer finds its value stored and keeps the ETag', async () => {
    const seen = await answers({ bodies: [NO_OP_PATCH_BODY] });
    expect(seen.filter(({ status, etag }) => status !== 200 || !etag.startsWith('"'))).toEqual([]);
    expect(new Set(seen.map(({ etag }) => etag)).size).toBe(1);
  });
});
