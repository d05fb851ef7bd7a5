// Per-call overhead of the typed client's getKey against a raw fetch of the same URL, both
// against the real server on loopback. Rounds are interleaved and the median ratio reported, so
// that the noise of a shared machine hits both sides alike.
// Run: npm run bench:client [-- --calls 2000 --rounds 7]; `npm run bench` runs it too.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApiClient } from '../client/index.js';
import { parseArgsOrMessage } from '../scripts/shared/cli-args.js';
import { createApp } from '../server/app.js';
import { createSecretBox } from '../server/domain/secrets.js';
import { Provisioning } from '../server/provisioning/provision.js';
import { UNREACHABLE_RATE_LIMIT } from '../server/rate-limit/rate-limit.js';
import { runMain } from '../server/run-main.js';
import { loadSpec } from '../server/spec.js';
import { openStore } from '../server/store/store.js';
import { median } from './shared/stats.js';

export interface ClientOverhead {
  calls: number;
  rounds: number;
  rawFetchMsPerCall: number;
  clientMsPerCall: number;
  medianRatio: number;
}

export async function measureClientOverhead({
  calls,
  rounds,
}: {
  calls: number;
  rounds: number;
}): Promise<ClientOverhead> {
  const spec = loadSpec();
  const store = await openStore('sqlite::memory:', createSecretBox(randomBytes(32)));
  const workspace = await store.workspaces.create('Bench', new Date());
  const key = await new Provisioning(spec).createKey(
    store,
    { workspaceId: workspace.id, name: 'Bench', kind: 'management' },
    new Date(),
  );
  // Production settings: requests validated, responses not.
  const app = createApp({
    store,
    clock: () => new Date(),
    logger: pino({ level: 'silent' }),
    spec,
    validateResponses: false,
    rateLimit: UNREACHABLE_RATE_LIMIT,
    authFailureLimit: UNREACHABLE_RATE_LIMIT,
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  const url = `${baseUrl}/keys/${key.hash}`;
  const client = createApiClient({ baseUrl, apiKey: key.rawKey });

  const rawFetch = async () => {
    const response = await fetch(url, { headers: { authorization: `Bearer ${key.rawKey}` } });
    if (response.status !== 200) throw new Error(`raw fetch got ${response.status}`);
    await response.json();
  };
  const typedClient = async () => {
    await client.getKey(key.hash);
  };
  const timeCalls = async (call: () => Promise<void>) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await call();
    return Number(process.hrtime.bigint() - started) / 1e6 / calls;
  };

  await timeCalls(rawFetch);
  await timeCalls(typedClient);
  const raw: number[] = [];
  const typed: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    // Alternate which side goes first, so that drift of the machine hits both alike.
    const rawFirst = round % 2 === 0;
    const first = await timeCalls(rawFirst ? rawFetch : typedClient);
    const second = await timeCalls(rawFirst ? typedClient : rawFetch);
    const [rawMs, typedMs] = rawFirst ? [first, second] : [second, first];
    raw.push(rawMs);
    typed.push(typedMs);
    ratios.push(typedMs / rawMs);
  }
  server.closeAllConnections();
  server.close();
  await store.close();
  return { calls, rounds, rawFetchMsPerCall: median(raw), clientMsPerCall: median(typed), medianRatio: median(ratios) };
}

export async function main(argv: string[]): Promise<number> {
  const parsed = parseArgsOrMessage({
    args: argv,
    options: {
      calls: { type: 'string', default: '2000' },
      rounds: { type: 'string', default: '7' },
      json: { type: 'boolean' },
    },
  });
  if (typeof parsed === 'string') {
    console.error(parsed);
    return 2;
  }
  const { values } = parsed;
  const result = await measureClientOverhead({ calls: Number(values.calls), rounds: Number(values.rounds) });
  if (values.json) console.log(JSON.stringify({ ...result, target: 1.1 }));
  else {
    console.log(`getKey, ${result.calls} sequential calls x ${result.rounds} interleaved rounds (median)`);
    console.log(`  raw fetch:    ${result.rawFetchMsPerCall.toFixed(3)} ms/call`);
    console.log(`  typed client: ${result.clientMsPerCall.toFixed(3)} ms/call`);
    console.log(`  ratio:        ${result.medianRatio.toFixed(3)}x (target <= 1.1x)`);
  }
  return 0;
}

await runMain(main, import.meta.url);
