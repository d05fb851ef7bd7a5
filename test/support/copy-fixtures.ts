// Databases for the tests of copy-database: one of either kind filled through the store with every
// kind of row, and every answer the API gives of what it holds, to compare a copy with its source.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigValues } from '../../server/domain/destination-config-rules.js';
import { createSecretBox, type SecretBox } from '../../server/domain/secrets.js';
import { recordUsage } from '../../server/provisioning/provision.js';
import { openStore } from '../../server/store/store.js';
import { createPostgresDatabase, type TestDatabase } from './database.js';
import { createWorkspace, provision, startTestServer, type Workspace } from './server.js';

export const NOW = '2026-11-18T12:00:00.000Z';

export function sqliteFile(name = 'api.db'): TestDatabase {
  const url = `sqlite:${join(mkdtempSync(join(tmpdir(), 'copy-')), name)}`;
  return { url, drop: async () => undefined };
}

export const databaseOf = (kind: 'sqlite' | 'postgres'): Promise<TestDatabase> =>
  kind === 'sqlite' ? Promise.resolve(sqliteFile()) : createPostgresDatabase();

export interface Filled {
  secrets: SecretBox;
  workspaces: (Workspace & { keyHashes: string[]; destinations: string[]; slugs: string[] })[];
}

/** Workspaces with keys and their usage over days, destinations with secrets, presets of several pages. */
export async function fillDatabase(url: string, secrets = createSecretBox(randomBytes(32))): Promise<Filled> {
  const store = await openStore(url, secrets);
  const now = new Date(NOW);
  const workspaces: Filled['workspaces'] = [];
  try {
    for (const [w, name] of ['Acme', 'Globex \t\\ "quoted"\nline'].entries()) {
      const workspace = await createWorkspace(store, now, name);
      const keyHashes = [workspace.standardKeyHash];
      for (let k = 0; k < 3; k++) {
        const key = await provision.createKey(
          store,
          { workspaceId: workspace.id, name: `Key ${k}`, kind: 'standard', limit: 10 + k, limitReset: 'daily' },
          now,
        );
        keyHashes.push(key.hash);
        for (let day = 0; day < 5; day++)
          await recordUsage(store, {
            keyHash: key.hash,
            amount: 0.1 * (day + 1) + k / 3,
            byok: day % 2 === 0,
            at: new Date(now.getTime() - day * 86_400_000),
          });
      }
      const destinations = [];
      for (const [d, type] of (['langfuse', 'otel-collector'] as const).entries()) {
        const config: ConfigValues =
          type === 'langfuse'
            ? {
                baseUrl: 'https://cloud.langfuse.com',
                publicKey: `pk-lf-${'1'.repeat(16)}${w}${d}-abcdefghijklmnop`,
                secretKey: `sk-lf-${randomBytes(16).toString('hex')}`,
              }
            : { endpoint: `https://otel-${w}.example.com` };
        const created = await provision.createDestination(
          store,
          { workspaceId: workspace.id, type, name: `${type} ${w}`, config, enabled: d === 0, sampling_rate: 0.5 },
          now,
        );
        destinations.push(created.id);
      }
      const slugs = [`support-${w}`, `long-${w}`];
      for (const [p, slug] of slugs.entries())
        for (let v = 0; v < (p === 0 ? 3 : 120); v++)
          await provision.addPresetVersion(
            store,
            {
              workspaceId: workspace.id,
              slug,
              config: { model: 'openai/gpt-4o-mini', temperature: (v % 10) / 10 },
              systemPrompt: v % 3 === 0 ? null : `Version ${v}: be brief.\tÜnïcode ✓`,
              creatorId: `user_${v % 4}`,
            },
            now,
          );
      workspaces.push({ ...workspace, keyHashes, destinations, slugs });
    }
  } finally {
    await store.close();
  }
  return { secrets, workspaces };
}

/** Every answer of every object: each key, each destination read by an empty PATCH, each page of each preset. */
export async function everyAnswer(url: string, secrets: SecretBox, filled: Filled): Promise<string[]> {
  const server = await startTestServer({ databaseUrl: url, secrets, now: NOW });
  const answers: string[] = [];
  const ask = async (method: string, path: string, key: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    answers.push(`${method} ${path} ${response.status} ${response.headers.get('etag')} ${await response.text()}`);
  };
  try {
    for (const workspace of filled.workspaces) {
      for (const hash of workspace.keyHashes) await ask('GET', `/api/v1/keys/${hash}`, workspace.managementKey);
      for (const id of workspace.destinations)
        await ask('PATCH', `/api/v1/observability/destinations/${id}`, workspace.managementKey, {});
      for (const slug of workspace.slugs)
        for (const offset of [0, 50, 100])
          await ask('GET', `/api/v1/presets/${slug}/versions?offset=${offset}&limit=50`, workspace.standardKey);
    }
  } finally {
    await server.close();
  }
  return answers;
}
