// npm run bench:database-waits: how long the server's own statements, and its own writes of one row,
// take on PostgreSQL under the heaviest loads it meets, so that the bounds on each wait
// (DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_LOCK_TIMEOUT_MS, DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS)
// sit far above anything a healthy database makes a request wait. Two stores on one fresh database
// stand for two instances; the bounds are off while it measures.
//   - 1,000 PATCHes of one row at once, half through each instance: their writes meet on the row's lock;
//   - 1,000 PATCHes of 50 rows at once;
//   - 200 reads of a page of 100 versions deep in a preset of 10,000, with 200 reads of a key with
//     three years of usage.
// Prints, per load, the slowest and the 99.9th percentile of a statement once it has its connection
// (its lock wait included), of a write (an update, or a read for update: what waits on a row's
// lock), and the longest transaction, in ms.
// Needs DATABASE_URL or TEST_POSTGRES_URL: a PostgreSQL server where it may create and drop a database.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { parseArgsOrMessage } from '../scripts/shared/cli-args.js';
import {
  type DestinationType,
  type DestinationTypeRules,
  loadDestinationTypeRules,
} from '../server/domain/destination-config-rules.js';
import { createSecretBox } from '../server/domain/secrets.js';
import { Provisioning, recordUsage } from '../server/provisioning/provision.js';
import { runMain } from '../server/run-main.js';
import { loadSpec } from '../server/spec.js';
import { openStore, type Store } from '../server/store/store.js';
import { bulkPresetVersions } from './servers/bulk-seed.js';
import { percentile } from './shared/stats.js';

const adminUrl = process.env.DATABASE_URL ?? process.env.TEST_POSTGRES_URL;
const NO_BOUND = { statementMs: 0, lockMs: 0, idleInTransactionMs: 0 };

/** How long each statement took from the client's side, once it had its connection, and each transaction. */
const timings = { statements: [] as number[], writes: [] as number[], transactions: [] as number[] };
const transactionStarts = new WeakMap<pg.Client, number>();

type Query = (...args: unknown[]) => Promise<unknown>;
const clientQuery = pg.Client.prototype.query as unknown as Query;
pg.Client.prototype.query = async function timedQuery(this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: string };
  const text = (typeof first === 'string' ? first : (first.text ?? '')).trim().toLowerCase();
  const started = performance.now();
  if (text === 'begin') transactionStarts.set(this, started);
  try {
    return await clientQuery.apply(this, args);
  } finally {
    const ended = performance.now();
    timings.statements.push(ended - started);
    // A write waits for its row's lock: an update, or a read for update.
    if (text.startsWith('update') || text.endsWith('for update')) timings.writes.push(ended - started);
    const began = transactionStarts.get(this);
    if ((text === 'commit' || text === 'rollback') && began !== undefined) timings.transactions.push(ended - began);
  }
} as unknown as typeof pg.Client.prototype.query;

const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1));

export async function main(argv: string[]): Promise<number> {
  const parsed = parseArgsOrMessage({ args: argv, options: {} });
  if (typeof parsed === 'string') {
    console.error(`bench:database-waits: ${parsed} (usage: npm run bench:database-waits)`);
    return 2;
  }
  if (!adminUrl) {
    console.error('bench:database-waits: set DATABASE_URL (or TEST_POSTGRES_URL) to a PostgreSQL server');
    return 2;
  }
  const name = `api_bench_waits_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const spec = loadSpec();
  const rules = loadDestinationTypeRules(spec);
  const provision = new Provisioning(spec, rules);
  const secrets = createSecretBox(randomBytes(32));
  const stores: Store[] = [];
  try {
    for (let i = 0; i < 2; i++) stores.push(await openStore(url.toString(), secrets, { timeouts: NO_BOUND }));
    const [first, second] = stores as [Store, Store];
    const now = new Date();
    const workspace = await first.workspaces.create('Waits', now);
    const key = await provision.createKey(first, { workspaceId: workspace.id, name: 'Key', kind: 'management' }, now);
    const day = 86_400_000;
    for (let i = 0; i < 3 * 365; i++)
      await recordUsage(first, {
        keyHash: key.hash,
        amount: 0.5,
        byok: i % 2 === 0,
        at: new Date(now.getTime() - i * day),
      });
    const destinations: string[] = [];
    for (let i = 0; i < 50; i++)
      destinations.push(
        (
          await provision.createDestination(
            first,
            { workspaceId: workspace.id, type: 'webhook', config: { url: 'https://hooks.example.com' } },
            now,
          )
        ).id,
      );
    await bulkPresetVersions(url.toString(), workspace.id, 'largest', 10_000, now);
    const patch = (store: Store, id: string, i: number) =>
      store.destinations.update(
        workspace.id,
        id,
        new Date(),
        { changes: { sampling_rate: ((i % 999) + 1) / 1000 } },
        rulesOf,
      );
    const rulesOf = (type: DestinationType): DestinationTypeRules => {
      const found = rules.get(type);
      if (!found) throw new Error(`no rules for ${type}`);
      return found;
    };
    const windows = { day: '2026-11-28', weekStart: '2026-11-23', monthStart: '2026-11-01' };
    const loads: [string, () => Promise<unknown>][] = [
      [
        '1,000 PATCHes of one row, two instances',
        () =>
          Promise.all(Array.from({ length: 1000 }, (_, i) => patch(i % 2 ? first : second, destinations[0] ?? '', i))),
      ],
      [
        '1,000 PATCHes of 50 rows, two instances',
        () =>
          Promise.all(
            Array.from({ length: 1000 }, (_, i) => patch(i % 2 ? first : second, destinations[i % 50] ?? '', i)),
          ),
      ],
      [
        '200 pages of 100 versions and 200 reads of a key with 3 years of usage',
        () =>
          Promise.all(
            Array.from({ length: 400 }, (_, i) =>
              i % 2
                ? first.presets.pageOfVersions(workspace.id, 'largest', 5_000, 100)
                : second.keys.findInWorkspaceWithUsage(workspace.id, key.hash, windows),
            ),
          ),
      ],
    ];
    console.log('| load | statements | slowest | p99.9 | writes | slowest | p99.9 | longest transaction |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const [label, run] of loads) {
      for (const list of Object.values(timings)) list.length = 0;
      await run();
      const { statements, writes, transactions } = timings;
      const slowest = (values: number[]) => ms(values.length ? Math.max(...values) : Number.NaN);
      console.log(
        `| ${label} | ${statements.length} | ${slowest(statements)} | ${ms(percentile(statements, 0.999))} | ${writes.length} | ${slowest(writes)} | ${ms(percentile(writes, 0.999))} | ${slowest(transactions)} |`,
      );
    }
  } finally {
    for (const store of stores) await store.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
  return 0;
}

await runMain(main, import.meta.url);
