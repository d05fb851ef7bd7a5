// A page of preset versions never changes while the preset keeps its versions, so it has a strong
// ETag, and a GET with If-None-Match holding it is answered 304 with no body, from a lookup of the
// preset alone: the page is not read (RFC 9110 §13.1.2, §15.4.5). On SQLite, and on PostgreSQL in
// the `postgres` project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../server/store/store.js';
import {
  type CallResult,
  call,
  createWorkspace,
  provision,
  startTestServer,
  type TestServer,
  type Workspace,
} from '../support/server.js';
import { documentedCacheControl } from '../support/spec.js';

let server: TestServer;
let workspace: Workspace;
let other: Workspace;
let pageReads = 0;

/** The store, counting the reads of a page. */
function countingPageReads(store: Store): Store {
  return {
    ...store,
    presets: {
      ...store.presets,
      pageOfVersions: (...args) => {
        pageReads += 1;
        return store.presets.pageOfVersions(...args);
      },
    },
  };
}

async function addVersion(workspaceId: string, slug: string, n: number) {
  await provision.addPresetVersion(
    server.store,
    { workspaceId, slug, config: { model: 'm/x', temperature: n / 10 }, creatorId: 'u' },
    server.clock.now(),
  );
}

beforeAll(async () => {
  server = await startTestServer({ store: countingPageReads });
  workspace = await createWorkspace(server.store, server.clock.now());
  other = await createWorkspace(server.store, server.clock.now(), 'Other');
  for (let i = 1; i <= 3; i++) {
    await addVersion(workspace.id, 'tagged', i);
    // The same slug and count in another workspace: another preset, another tag.
    await addVersion(other.id, 'tagged', i);
  }
});

afterAll(async () => {
  expect(server.serverErrors()).toEqual([]);
  await server?.close();
});

const list = (slug: string, query = '', headers: Record<string, string> = {}, key = workspace.standardKey) =>
  call(server, 'GET', `/api/v1/presets/${slug}/versions${query}`, { key, headers });
const etagOf = (response: CallResult) => response.headers.get('etag') ?? '';

describe('the ETag of a page of versions', () => {
  it('is strong, and the same for the same page as long as the preset keeps its versions', async () => {
    const first = await list('tagged');
    expect(first.status).toBe(200);
    expect(etagOf(first)).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(etagOf(await list('tagged'))).toBe(etagOf(first));
  });

  it('differs with the page (offset, limit), with the preset, and once a version is added', async () => {
    const tags = new Set([
      etagOf(await list('tagged')),
      etagOf(await list('tagged', '?offset=1')),
      etagOf(await list('tagged', '?limit=2')),
      etagOf(await list('tagged', '', {}, other.standardKey)),
    ]);
    expect(tags.size).toBe(4);
    await addVersion(workspace.id, 'growing', 1);
    const before = await list('growing');
    await addVersion(workspace.id, 'growing', 2);
    const after = await list('growing');
    expect(etagOf(after)).not.toBe(etagOf(before));
    expect((await list('growing', '', { 'If-None-Match': etagOf(before) })).status).toBe(200);
  });
});

describe('If-None-Match', () => {
  it('answers 304 with no body, the ETag and the Cache-Control documented, without reading the page', async () => {
    const page = await list('tagged');
    const reads = pageReads;
    const response = await list('tagged', '', { 'If-None-Match': etagOf(page) });
    expect(response.status).toBe(304);
    expect(response.body).toBe('');
    expect(etagOf(response)).toBe(etagOf(page));
    expect(response.headers.get('cache-control')).toBe(documentedCacheControl('listPresetVersions', '304'));
    expect(pageReads).toBe(reads);
  });

  it('takes a list of tags, a weak tag of the page (weak comparison) and *', async () => {
    const tag = etagOf(await list('tagged'));
    for (const header of [`"other", ${tag}`, `W/${tag}`, '*', ` ${tag} `])
      expect((await list('tagged', '', { 'If-None-Match': header })).status, header).toBe(304);
  });

  it('answers 200 with the page to a tag of another page, another preset or an older count', async () => {
    const otherPage = etagOf(await list('tagged', '?offset=1'));
    const otherPreset = etagOf(await list('tagged', '', {}, other.standardKey));
    for (const header of [otherPage, otherPreset, '"not-a-tag"']) {
      const response = await list('tagged', '', { 'If-None-Match': header });
      expect(response.status).toBe(200);
      expect(response.body.total_count).toBe(3);
    }
  });

  it('answers 404 for a preset the workspace does not have, whatever the tag', async () => {
    const response = await list('absent', '', { 'If-None-Match': '*' });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe(404);
  });

  it('answers 400 naming the header when it breaks its schema', async () => {
    const response = await list('tagged', '', { 'If-None-Match': `"${'x'.repeat(600)}"` });
    expect(response.status).toBe(400);
    expect(response.body.error.metadata.errors.map((e: { path: string }) => e.path)).toEqual(['/header/if-none-match']);
  });
});
