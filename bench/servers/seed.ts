// Seeds the benchmark's database in a process of its own, so that the server's memory holds only
// what serving takes. Prints what the harness needs as one JSON line.
// Usage: seed.ts <database-url> <big-count>, with BENCH_SECRETS_KEY (hex, 32 bytes) set.

import { createSecretBox } from '../../server/domain/secrets.js';
import { utcDay } from '../../server/domain/time.js';
import { type NewKeyInput, Provisioning } from '../../server/provisioning/provision.js';
import { loadSpec } from '../../server/spec.js';
import { openStore } from '../../server/store/store.js';
import { bulkPresetVersions, bulkUsage } from './bulk-seed.js';

const [databaseUrl = '', bigArg = '0'] = process.argv.slice(2);
const bigCount = Number(bigArg);
const store = await openStore(databaseUrl, createSecretBox(Buffer.from(process.env.BENCH_SECRETS_KEY ?? '', 'hex')));
const now = new Date();
const provision = new Provisioning(loadSpec());
const workspace = await store.workspaces.create('Bench', now);
const keyOf = (input: Omit<NewKeyInput, 'workspaceId'>) =>
  provision.createKey(store, { workspaceId: workspace.id, ...input }, now);
const management = await keyOf({ name: 'Bench admin', kind: 'management' });
const idle = await keyOf({ name: 'No usage', kind: 'standard', limit: 100, limitReset: 'monthly' });
const busy = await keyOf({ name: 'Much usage', kind: 'standard', limit: 100, limitReset: 'monthly' });
const destination = await provision.createDestination(
  store,
  {
    workspaceId: workspace.id,
    type: 'langfuse',
    name: 'Bench',
    config: {
      baseUrl: 'https://cloud.langfuse.com',
      publicKey: 'pk-lf-bench-0123456789',
      secretKey: 'sk-lf-bench-0123456789',
    },
  },
  now,
);
/** Destinations that the benchmark's spread PATCH writes in turn (on PostgreSQL). */
const SPREAD_DESTINATIONS = 50;
const spreadDestinationIds: string[] = [];
for (let i = 1; i <= SPREAD_DESTINATIONS; i++) {
  const spread = await provision.createDestination(
    store,
    {
      workspaceId: workspace.id,
      type: 'webhook',
      name: `Spread ${i}`,
      config: { url: `https://example.com/hook/${i}` },
    },
    now,
  );
  spreadDestinationIds.push(spread.id);
}
for (let i = 1; i <= 100; i++) {
  await provision.addPresetVersion(
    store,
    {
      workspaceId: workspace.id,
      slug: 'small',
      config: { model: 'openai/gpt-4o-mini', temperature: 0.2 },
      systemPrompt: `Version ${i}`,
      creatorId: 'user_bench',
    },
    now,
  );
}
if (bigCount > 0) {
  await bulkPresetVersions(databaseUrl, workspace.id, 'huge', bigCount, now);
  await bulkUsage(databaseUrl, busy.id, bigCount, now);
}
await store.close();
console.log(
  JSON.stringify({
    managementKey: management.rawKey,
    standardKey: idle.rawKey,
    idleKeyHash: idle.hash,
    busyKeyHash: busy.hash,
    destinationId: destination.id,
    spreadDestinationIds: spreadDestinationIds.join(','),
    today: utcDay(now),
  }),
);
