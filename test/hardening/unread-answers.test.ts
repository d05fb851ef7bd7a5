// Answers a client does not read cost bounded memory. Clients pipeline requests for the largest
// page the contract allows on several connections and never read: the server, in production mode
// in a process of its own, takes the next request of a connection only once the answer before it
// is written out, so its RSS grows by a bounded amount, and another client is still served at once.
// The test waits on what it can see, never on time: the server's in-flight gauge (one request a
// connection), then the kernel's queues of those connections (full, and no longer moving).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rssMb } from '../../bench/shared/processes.js';
import { MAX_CONFIG_JSON_LENGTH } from '../../server/domain/preset-versions.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { nodeAt, operationPath } from '../../server/spec.js';
import { openStore } from '../../server/store/store.js';
import { type ServerProcess, startServerProcess } from '../support/process.js';
import { createWorkspace, provision } from '../support/server.js';
import { findOperation, spec } from '../support/spec.js';

const CLIENTS = 4;
const PIPELINED = 60;
const MAX_RSS_GROWTH_MB = 150;
const PLAIN_ANSWER_MS = 1000;

const limitSchema = findOperation('listPresetVersions').parameters.find((p) => p.name === 'limit')?.schema;
const largestLimit = Number(limitSchema?.maximum);
const promptLength = Number(nodeAt(spec, '#/components/schemas/PresetVersion/properties/system_prompt/maxLength'));

/**
 * The largest version the contract allows, in bytes of JSON: the longest system prompt, of
 * characters that JSON escapes in 6 bytes each, and the longest config, of characters of 4 bytes.
 */
function largestVersion(i: number) {
  const empty = JSON.stringify({ notes: '' }).length;
  // An emoji is 2 UTF-16 units (what the config's length counts) and 4 bytes of UTF-8.
  const notes = '\u{1F600}'.repeat(Math.floor((MAX_CONFIG_JSON_LENGTH - empty) / 2));
  return { config: { notes }, systemPrompt: `${i}`.padEnd(promptLength, '\u0007') };
}

let server: ServerProcess;
let standardKey: string;
let pagePath: string;
let plainPath: string;

beforeAll(async () => {
  const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'unread-answers-')), 'api.db')}`;
  const secretsKey = randomBytes(32);
  const store = await openStore(databaseUrl, createSecretBox(secretsKey));
  const now = new Date();
  const workspace = await createWorkspace(store, now);
  for (let i = 0; i < largestLimit; i++) {
    const { config, systemPrompt } = largestVersion(i);
    await provision.addPresetVersion(
      store,
      { workspaceId: workspace.id, slug: 'large', config, systemPrompt, creatorId: 'u' },
      now,
    );
  }
  await provision.addPresetVersion(
    store,
    { workspaceId: workspace.id, slug: 'small', config: {}, creatorId: 'u' },
    now,
  );
  await store.close();
  standardKey = workspace.standardKey;
  pagePath = `${operationPath(spec, 'listPresetVersions', { slug: 'large' })}?limit=${largestLimit}`;
  plainPath = operationPath(spec, 'listPresetVersions', { slug: 'small' });
  server = await startServerProcess({
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    SECRETS_KEY: secretsKey.toString('base64'),
    METRICS_PORT: '0',
  });
}, 120_000);
afterAll(() => server?.stop());

async function timedGet(path: string): Promise<{ status: number; ms: number; bytes: number }> {
  const startedAt = performance.now();
  const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${standardKey}` } });
  const bytes = (await response.arrayBuffer()).byteLength;
  return { status: response.status, ms: performance.now() - startedAt, bytes };
}

/** A connection that sends `count` pipelined requests for `path` at once, then never reads. */
function unreadPipeline(path: string, count: number): Promise<Socket> {
  const { hostname, port } = new URL(server.url);
  const request = `GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${standardKey}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.pause();
      socket.write(request.repeat(count));
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

/** The requests the server has received and not yet answered, from its own gauge. */
async function requestsInFlight(): Promise<number> {
  const text = await (await fetch(server.metricsUrl ?? '')).text();
  return Number(/^http_requests_in_flight(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1]);
}

/** The bytes waiting in the kernel's receive queue of the connection from a local port (Linux). */
function receiveQueue(localPort: number): number {
  const lines = ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) => readFileSync(file, 'utf8').split('\n').slice(1));
  for (const line of lines) {
    const [, local, , , queues] = line.trim().split(/\s+/);
    if (local && queues && Number.parseInt(local.split(':').at(-1) ?? '', 16) === localPort)
      return Number.parseInt(queues.split(':')[1] ?? '', 16);
  }
  throw new Error(`no TCP connection from local port ${localPort}`);
}

/** Polls `check` every 100 ms until it holds; throws with `describe()` once `ms` have passed. */
async function until(check: () => Promise<boolean> | boolean, describe: () => string, ms = 30_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`not reached within ${ms} ms: ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('clients that pipeline requests for the largest page and never read', () => {
  it(`grow the server's RSS by less than ${MAX_RSS_GROWTH_MB} MB, and another client is answered within ${PLAIN_ANSWER_MS} ms`, async () => {
    // Warm: the largest page read in full, twice, so that what a first answer allocates is counted before.
    const page = await timedGet(pagePath);
    expect((await timedGet(pagePath)).status).toBe(200);
    expect((await timedGet(plainPath)).status).toBe(200);
    const pid = server.child.pid;
    const before = rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 20);
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < CLIENTS; i++) sockets.push(await unreadPipeline(pagePath, PIPELINED));
      // Each connection's first request is being answered, and none of the requests behind it taken.
      let inFlight = 0;
      await until(
        async () => {
          inFlight = await requestsInFlight();
          return inFlight === CLIENTS;
        },
        () => `${inFlight} requests in flight`,
      );
      const plain = await timedGet(plainPath);
      // The answers being written have filled the clients' receive queues, which no longer move: the
      // server has written all it can, and holds what it holds.
      let queues: number[] = [];
      await until(
        () => {
          const last = queues;
          queues = sockets.map((socket) => receiveQueue(socket.localPort ?? 0));
          return queues.every((bytes, i) => bytes > 0 && bytes === last[i]);
        },
        () => `receive queues ${JSON.stringify(queues)}`,
      );
      expect(await requestsInFlight()).toBe(CLIENTS);
      const plainAfter = await timedGet(plainPath);
      clearInterval(sampler);
      peak = Math.max(peak, rssMb(pid));
      const figures = {
        pageMb: Number((page.bytes / 1e6).toFixed(1)),
        rssBeforeMb: Math.round(before),
        rssGrowthMb: Math.round(peak - before),
        plainMs: Math.round(plain.ms),
        plainAfterMs: Math.round(plainAfter.ms),
      };
      console.info(`unread pipelined pages: ${JSON.stringify(figures)}`);
      expect([page.status, plain.status, plainAfter.status]).toEqual([200, 200, 200]);
      expect(figures.rssGrowthMb, JSON.stringify(figures)).toBeLessThan(MAX_RSS_GROWTH_MB);
      expect(Math.max(plain.ms, plainAfter.ms), JSON.stringify(figures)).toBeLessThan(PLAIN_ANSWER_MS);
    } finally {
      clearInterval(sampler);
      for (const socket of sockets) socket.destroy();
    }
  }, 60_000);
});
