// Amplification: no body within the byte limit costs the server more than a bound of CPU time,
// whatever it is made of: for every array, object and string of every request body the spec
// declares, bodies at the limit of the cheapest elements to send and the most expensive to check
// (bench/shared/amplification-vectors.ts), with a key and without; and a plain request sent
// meanwhile by another client is not held up. The server runs in production mode in a process of its own.
// `npm run bench -- --amplification` measures the same on the build, for BENCHMARKS.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AmplificationRow,
  costliestBeside,
  latencyMeanwhile,
  measureAmplification,
} from '../../bench/shared/amplification.js';
import { amplificationBodies } from '../../bench/shared/amplification-vectors.js';
import { SOURCE_SCRIPTS, seededServer } from '../../bench/shared/hostile.js';
import { stopServer } from '../../bench/shared/processes.js';
import { BODY_LIMIT_BYTES } from '../../server/request-pipeline.js';
import { spec } from '../support/spec.js';

// The target is 50 ms of server CPU for any body within the limit on an idle machine; a test run
// shares two cores with other suites, which stretches CPU time too. Before the fix, bodies of this
// suite took from 0.2 s to minutes. 1,000 empty filter rules measure 100 to 114 ms on the machine
// CI runs on, alone and idle: the bound is twice that until their 400 costs less (BENCHMARKS.md,
// "Amplification").
const MAX_CPU_MS = 200;
// A plain request waits at most for the hostile requests ahead of it on the event loop: on the
// build and an idle machine the slowest is about 230 ms (target 300, BENCHMARKS.md); a test run
// shares the cores with other suites. Before the fix one body held every request for 25 s.
const MAX_PLAIN_LATENCY_MS = 1000;

let started: Awaited<ReturnType<typeof seededServer>>;
let rows: AmplificationRow[];

beforeAll(async () => {
  started = await seededServer(SOURCE_SCRIPTS);
  rows = await measureAmplification(started.server, started.target, { count: 3, concurrency: 1 });
}, 300_000);
afterAll(() => stopServer(started.server));

describe('bodies at the byte limit', () => {
  it('cover every array, object and string of every request body the spec declares, with a key and without', () => {
    const expected = amplificationBodies(spec, BODY_LIMIT_BYTES).flatMap(({ entry, bodies }) =>
      bodies.flatMap((b) => [true, false].map((withKey) => `${entry.operation.operationId} ${b.shape} ${withKey}`)),
    );
    expect(expected.length).toBeGreaterThan(20);
    expect(rows.map((r) => `${r.operationId} ${r.shape} ${r.withKey}`).sort()).toEqual(expected.sort());
    for (const row of rows) expect(row.bytes).toBeLessThanOrEqual(BODY_LIMIT_BYTES);
  });

  it(`are each answered in the envelope within ${MAX_CPU_MS} ms of server CPU, never 5xx`, () => {
    const costly = rows.filter((r) => r.cpuUs > MAX_CPU_MS * 1000 || r.serverErrors > 0);
    expect(
      costly.map((r) => `${r.shape} (key: ${r.withKey}): ${(r.cpuUs / 1000).toFixed(1)} ms, ${r.statuses}`),
    ).toEqual([]);
  });

  it('without a key are refused before they are read: 401, at the cost of a plain refusal', () => {
    const withoutKey = rows.filter((r) => !r.withKey);
    for (const row of withoutKey) expect(row.statuses).toMatch(/^401×\d+$/);
    // A few requests a body on a shared machine: one row can be off by a millisecond; their median is not.
    const cpu = withoutKey.map((r) => r.cpuUs).sort((a, b) => a - b);
    expect(cpu[Math.floor(cpu.length / 2)]).toBeLessThan((withoutKey[0]?.plainCpuUs ?? 0) * 2);
  });

  it(`hold up a plain request sent meanwhile by at most ${MAX_PLAIN_LATENCY_MS} ms`, async () => {
    const { shape, plain, hostile } = costliestBeside(rows, started.target);
    const latency = await latencyMeanwhile(started.server, plain, hostile, { count: 40, concurrency: 2 });
    expect(latency.plainRequests).toBeGreaterThan(5);
    expect(latency.maxMs, `${shape}: ${JSON.stringify(latency)}`).toBeLessThan(MAX_PLAIN_LATENCY_MS);
  }, 120_000);
});
