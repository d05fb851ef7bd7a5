// The server under test, as in production (request validation on, response validation off, one
// log line per request, written to /dev/null), on a database seeded for the benchmark. Prints what the harness needs as one JSON line.
// Usage: subject.ts <database-url> <big-count>
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp } from '../../server/app.js';
import { UNREACHABLE_RATE_LIMIT } from '../../server/rate-limit.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { systemClock, utcDay } from '../../server/domain/time.js';
import { addPresetVersion, createDestination, createKey } from '../../server/provisioning.js';
import { loadDestinationTypeRules } from '../../server/domain/destination-types.js';
import { loadSpec } from '../../server/spec.js';
import { openStore } from '../../server/store/index.js';
import { bulkPresetVersions, bulkUsage } from './bulk-seed.js';

const [databaseUrl = 'sqlite::memory:', bigArg = '0'] = process.argv.slice(2);
const bigCount = Number(bigArg);
const spec = loadSpec();
const store = await openStore(databaseUrl, createSecretBox(randomBytes(32)), { poolSize: 10 });
const now = new Date();
const workspace = await store.workspaces.create('Bench', now);
const management = await createKey(store, { workspaceId: workspace.id, name: 'Bench admin', kind: 'management' }, now);
const idle = await createKey(store, { workspaceId: workspace.id, name: 'No usage', kind: 'standard', limit: 100, limitReset: 'monthly' }, now);
const busy = await createKey(store, { workspaceId: workspace.id, name: 'Much usage', kind: 'standard', limit: 100, limitReset: 'monthly' }, now);
const destination = await createDestination(
  store,
  loadDestinationTypeRules(spec),
  { workspaceId: workspace.id, type: 'langfuse', name: 'Bench', config: { baseUrl: 'https://cloud.langfuse.com', publicKey: 'pk-lf-bench-0123456789', secretKey: 'sk-lf-bench-0123456789' } },
  now,
);
for (let i = 1; i <= 100; i++) {
  await addPresetVersion(store, { workspaceId: workspace.id, slug: 'small', config: { model: 'openai/gpt-4o-mini', temperature: 0.2 }, systemPrompt: `Version ${i}`, creatorId: 'user_bench' }, now);
}
if (bigCount > 0) {
  await bulkPresetVersions(databaseUrl, workspace.id, 'huge', bigCount, now);
  await bulkUsage(databaseUrl, busy.id, bigCount, now);
}

const app = createApp({ store, clock: systemClock, logger: pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: true })), spec, validateResponses: false, rateLimit: UNREACHABLE_RATE_LIMIT });
const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
console.log(
  JSON.stringify({
    port: (server.address() as AddressInfo).port,
    managementKey: management.rawKey,
    idleKeyHash: idle.hash,
    busyKeyHash: busy.hash,
    destinationId: destination.id,
    today: utcDay(now),
  }),
);
process.on('SIGTERM', () => {
  server.close();
  void store.close().then(() => process.exit(0));
});
