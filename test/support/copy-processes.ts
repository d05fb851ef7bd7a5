// copy-database as a process: a source large enough that a copy takes a while, the copy killed
// with SIGKILL once it has committed a batch, and the checksums a copy reports.
import { collectOutput } from '../../scripts/shared/child-process.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { openDatabase, parseDatabaseUrl } from '../../server/store/database.js';
import { type Filled, fillDatabase } from './copy-fixtures.js';
import { runEntry, spawnEntry } from './process.js';

export const SECRETS_KEY = Buffer.alloc(32, 9).toString('base64');

/** The fixture's rows, and many usage days and versions besides, written in a few statements. */
export async function largeSource(url: string, days = 40_000, versions = 20_000): Promise<Filled> {
  const filled = await fillDatabase(url, createSecretBox(Buffer.from(SECRETS_KEY, 'base64')));
  const { db } = await openDatabase(parseDatabaseUrl(url));
  try {
    const keys = await db.selectFrom('api_keys').select('id').execute();
    const [preset] = await db.selectFrom('presets').select('id').limit(1).execute();
    const stamp = '2026-01-01T00:00:00.000Z';
    for (let start = 0; start < days; start += 500)
      await db
        .insertInto('key_usage_daily')
        .values(
          Array.from({ length: Math.min(500, days - start) }, (_, i) => ({
            key_id: keys[(start + i) % keys.length]?.id ?? '',
            // A day of its own for each row, from 1900 on: a date as the API writes it, which fits
            // PostgreSQL's column as well as SQLite's.
            day: new Date(Date.UTC(1900, 0, 1) + (start + i) * 86_400_000).toISOString().slice(0, 10),
            usage: (start + i) / 7,
            byok_usage: 0,
          })),
        )
        .execute();
    for (let start = 0; start < versions; start += 500)
      await db
        .insertInto('preset_versions')
        .values(
          Array.from({ length: Math.min(500, versions - start) }, (_, i) => ({
            id: `00000000-0000-4000-8000-${String(start + i).padStart(12, '0')}`,
            preset_id: preset?.id ?? '',
            version: 1000 + start + i,
            config: '{"model":"m"}',
            system_prompt: null,
            creator_id: 'bulk',
            created_at: stamp,
            updated_at: stamp,
          })),
        )
        .execute();
  } finally {
    await db.destroy();
  }
  return filled;
}

export const copyCli = (args: string[], env: Record<string, string>) =>
  runEntry('server/cli.ts', ['copy-database', ...args], { SECRETS_KEY, ...env });

/** The per-table checksums of a copy's report, both sides. */
export function checksumsOf(stdout: string): Record<string, unknown> {
  const report = JSON.parse(stdout) as { tables: Record<string, { source: unknown; target: unknown }> };
  return Object.fromEntries(Object.entries(report.tables).map(([name, table]) => [name, [table.source, table.target]]));
}

/** Starts a copy and kills it with SIGKILL `delayMs` after `committed` says a batch is in the target. */
export async function killedCopy(
  to: string,
  env: Record<string, string>,
  committed: () => Promise<boolean>,
  delayMs: number,
): Promise<void> {
  const child = spawnEntry('server/cli.ts', ['copy-database', '--to', to], { SECRETS_KEY, ...env });
  const finished = collectOutput(child);
  const deadline = Date.now() + 30_000;
  while (!(await committed().catch(() => false))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the copy committed no batch');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  child.kill('SIGKILL');
  // A process killed by a signal has no exit code.
  const { code } = await finished;
  if (code !== null) throw new Error(`the copy ended before it was killed (exit ${code})`);
}
