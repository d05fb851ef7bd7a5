// npm run bench:copy-database: copy-database from SQLite into PostgreSQL against PostgreSQL's own
// COPY of the same rows from files (server-side COPY ... FROM '<file>', the fastest way in), each
// into a fresh database of this release's schema, in interleaved rounds; medians. Besides, the two
// ways a client can write the rows (COPY FROM STDIN, and multi-row INSERTs), in batches of the
// copy's size, which chose the copy's. And the copying process's peak RSS at two sizes, tenfold apart.
// Usage: BENCH_POSTGRES_URL=… npm run bench:copy-database -- [--rounds N] [--keys N]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { collectOutput } from '../scripts/shared/child-process.js';
import { parseArgsOrMessage } from '../scripts/shared/cli-args.js';
import { createSecretBox } from '../server/domain/secrets.js';
import { runMain } from '../server/run-main.js';
import { COPIED_TABLES, rowValues } from '../server/store/copy/copied-tables.js';
import { COPY_BATCH_ROWS } from '../server/store/copy/copy-database.js';
import { copyText } from '../server/store/copy/postgres-side.js';
import type { Place } from '../server/store/copy/sides.js';
import { sqliteSnapshot } from '../server/store/copy/sqlite-side.js';
import { openStore } from '../server/store/store.js';
import { sizeOf, writeCopySource } from './copy-source.js';
import { postgresDatabase } from './shared/processes.js';
import { median } from './shared/stats.js';

/** As `npm run cli` and the README's `node dist/server/cli.js` run the CLI. */
const CLI_NODE_FLAGS = ['--max-old-space-size=256'];

const USAGE = 'usage: BENCH_POSTGRES_URL=<server URL> npm run bench:copy-database -- [--rounds N] [--keys N]';

/** Each table of the source in COPY's text format, in a file the PostgreSQL server can read. */
async function exportTables(source: string, dir: string): Promise<Map<string, string>> {
  const reader = await sqliteSnapshot(source);
  const files = new Map<string, string>();
  try {
    for (const table of COPIED_TABLES) {
      const lines: string[] = [];
      let from: Place | null = null;
      do {
        const { rows, next } = await reader.batch(table, from, COPY_BATCH_ROWS);
        for (const row of rows) lines.push(`${rowValues(table, row).map(copyText).join('\t')}\n`);
        from = next;
      } while (from !== null);
      const file = join(dir, `${table.name}.copy`);
      writeFileSync(file, lines.join(''));
      chmodSync(file, 0o644);
      files.set(table.name, file);
    }
  } finally {
    await reader.close();
  }
  return files;
}

type Way = 'server COPY from files' | 'copy-database' | 'client COPY FROM STDIN' | 'client multi-row INSERT';

/** A fresh database of this release's schema, as copy-database makes its target. */
async function emptyTarget(adminUrl: string, secretsKey: Buffer) {
  const database = await postgresDatabase(adminUrl);
  await (await openStore(database.url, createSecretBox(secretsKey))).close();
  return database;
}

/** Rows of a COPY file, batch by batch, as text values (\N as null). */
async function* batchesOf(file: string): AsyncGenerator<(string | null)[][]> {
  const fieldValue = (field: string) =>
    field === '\\N' ? null : field.replace(/\\([\\tnr])/g, (_, c: string) => ({ t: '\t', n: '\n', r: '\r' })[c] ?? c);
  let batch: (string | null)[][] = [];
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY })) {
    batch.push(line.split('\t').map(fieldValue));
    if (batch.length === COPY_BATCH_ROWS) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

async function clientWrite(url: string, files: Map<string, string>, way: Way): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const table of COPIED_TABLES) {
      const columns = table.columns.map((column) => `"${column}"`).join(', ');
      for await (const batch of batchesOf(files.get(table.name) ?? '')) {
        await client.query('begin');
        if (way === 'client COPY FROM STDIN') {
          const stream = client.query(copyFrom(`copy "${table.name}" (${columns}) from stdin`));
          const done = new Promise((resolve, reject) => stream.on('finish', resolve).on('error', reject));
          stream.end(batch.map((row) => `${row.map(copyText).join('\t')}\n`).join(''));
          await done;
        } else {
          // PostgreSQL takes at most 65,535 parameters a statement.
          const perStatement = Math.floor(65_535 / table.columns.length);
          for (let start = 0; start < batch.length; start += perStatement) {
            const rows = batch.slice(start, start + perStatement);
            const tuples = rows.map(
              (_, r) => `(${table.columns.map((__, c) => `$${r * table.columns.length + c + 1}`).join(', ')})`,
            );
            await client.query(`insert into "${table.name}" (${columns}) values ${tuples.join(', ')}`, rows.flat());
          }
        }
        await client.query('commit');
      }
    }
  } finally {
    await client.end();
  }
}

/** copy-database as an operator runs it: the built CLI; its wall time and its peak RSS, sampled. */
async function copyDatabaseRun(
  source: string,
  target: string,
  secretsKey: Buffer,
): Promise<{ ms: number; rssMb: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...CLI_NODE_FLAGS, 'dist/server/cli.js', 'copy-database', '--to', target], {
    env: { ...process.env, DATABASE_URL: `sqlite:${source}`, SECRETS_KEY: secretsKey.toString('base64') },
  });
  let peak = 0;
  const sample = setInterval(() => {
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    } catch {}
  }, 50);
  const { code, stdout, stderr } = await collectOutput(child);
  clearInterval(sample);
  if (code !== 0 || !(JSON.parse(stdout) as { equal: boolean }).equal)
    throw new Error(`copy-database exited ${code}: ${stderr}`);
  return { ms: performance.now() - started, rssMb: peak };
}

async function timed(adminUrl: string, secretsKey: Buffer, way: Way, source: string, files: Map<string, string>) {
  const target = await emptyTarget(adminUrl, secretsKey);
  try {
    if (way === 'copy-database') return await copyDatabaseRun(source, target.url, secretsKey);
    const started = performance.now();
    if (way === 'server COPY from files') {
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      for (const table of COPIED_TABLES)
        await client.query(
          `copy "${table.name}" (${table.columns.map((column) => `"${column}"`).join(', ')}) from '${files.get(table.name)}'`,
        );
      await client.end();
    } else await clientWrite(target.url, files, way);
    return { ms: performance.now() - started, rssMb: 0 };
  } finally {
    await target.drop();
  }
}

export async function main(argv: string[]): Promise<number> {
  const parsed = parseArgsOrMessage({
    args: argv,
    options: { rounds: { type: 'string', default: '3' }, keys: { type: 'string', default: '100000' } },
  });
  if (typeof parsed === 'string') {
    console.error(`bench:copy-database: ${parsed} (${USAGE})`);
    return 2;
  }
  const rounds = Number(parsed.values.rounds);
  const keys = Number(parsed.values.keys);
  const adminUrl = process.env.BENCH_POSTGRES_URL;
  if (!(Number.isInteger(rounds) && rounds > 0 && Number.isInteger(keys) && keys >= 100) || !adminUrl) {
    console.error(
      `bench:copy-database: whole numbers for --rounds (> 0) and --keys (>= 100), and BENCH_POSTGRES_URL set (${USAGE})`,
    );
    return 2;
  }
  const secretsKey = randomBytes(32);
  const dir = mkdtempSync(join(tmpdir(), 'bench-copy-'));
  chmodSync(dir, 0o755);
  try {
    const rss: string[] = [];
    for (const size of [sizeOf(Math.round(keys / 10)), sizeOf(keys)]) {
      const source = join(dir, `source-${size.keys}.db`);
      console.error(`writing the source: ${size.keys} keys, ${size.usageDays} usage days, ${size.versions} versions`);
      await writeCopySource(source, size, secretsKey);
      const files = await exportTables(source, dir);
      const figures = new Map<Way, { ms: number; rssMb: number }[]>();
      const ways: Way[] =
        size.keys === keys
          ? ['server COPY from files', 'copy-database', 'client COPY FROM STDIN', 'client multi-row INSERT']
          : ['copy-database'];
      for (let round = 0; round < rounds; round++)
        for (const way of round % 2 === 0 ? ways : [...ways].reverse()) {
          const result = await timed(adminUrl, secretsKey, way, source, files);
          figures.set(way, [...(figures.get(way) ?? []), result]);
          console.error(`round ${round + 1}, ${size.keys} keys, ${way}: ${(result.ms / 1000).toFixed(1)} s`);
        }
      const medianMs = (way: Way) => median((figures.get(way) ?? []).map((result) => result.ms));
      rss.push(
        `| ${size.keys} keys | ${median((figures.get('copy-database') ?? []).map((r) => r.rssMb)).toFixed(0)} MB |`,
      );
      if (size.keys !== keys) continue;
      const baseline = medianMs('server COPY from files');
      console.log(
        `\n${size.keys} keys, ${size.usageDays} usage days, ${size.versions} versions; medians of ${rounds} rounds\n`,
      );
      console.log('| way | time | × server COPY |\n|---|---|---|');
      for (const way of ways)
        console.log(`| ${way} | ${(medianMs(way) / 1000).toFixed(1)} s | ${(medianMs(way) / baseline).toFixed(2)} |`);
      for (const file of files.values()) rmSync(file);
    }
    console.log('\n| source | copy-database peak RSS |\n|---|---|');
    for (const line of rss) console.log(line);
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await runMain(main, import.meta.url);
