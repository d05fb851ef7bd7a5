// The client against the real server: in-process, on an ephemeral port, over real sockets.
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, retryAfterMs } from '../../client/index.js';
import type { Store } from '../../server/store/store.js';
import { provision } from '../support/server.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';
import { type ContractTarget, describeClientContract } from './contract-suite.js';

let target: ContractTarget;
const VERSIONS = 7;

/** Failures the test switches on: the store answers busy (503), fails (500) or is slow. */
const faults = { busyCalls: 0, failNext: false, delayMs: 0, slowCall: Promise.resolve() };

function faultyStore(store: Store): Store {
  return {
    ...store,
    presets: {
      ...store.presets,
      pageOfVersions: async (...args) => {
        if (faults.delayMs > 0) {
          faults.slowCall = new Promise<void>((resolve) => setTimeout(resolve, faults.delayMs));
          await faults.slowCall;
        }
        if (faults.busyCalls > 0) {
          faults.busyCalls -= 1;
          throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
        }
        if (faults.failNext) {
          faults.failNext = false;
          throw new Error('boom');
        }
        return store.presets.pageOfVersions(...args);
      },
    },
  };
}

const server = useTestServer({ store: faultyStore });
const workspace = useWorkspace(server);

beforeAll(async () => {
  const destination = await provision.createDestination(
    server.store,
    {
      workspaceId: workspace.id,
      type: 'langfuse',
      name: 'Langfuse',
      config: { publicKey: 'pk-lf-1234567890abcdEfGh', secretKey: 'sk-lf-0b7e2f4c9a1d4e6b8c3f5a7d' },
    },
    server.clock.now(),
  );
  for (let i = 1; i <= VERSIONS; i++) {
    await provision.addPresetVersion(
      server.store,
      {
        workspaceId: workspace.id,
        slug: 'support-agent',
        config: { model: 'openai/gpt-4o', temperature: i / 10 },
        creatorId: 'user_1',
      },
      server.clock.now(),
    );
  }
  target = {
    baseUrl: `${server.baseUrl}/api/v1`,
    apiKey: workspace.managementKey,
    keyHash: workspace.standardKeyHash,
    destinationId: destination.id,
    presetSlug: 'support-agent',
    firstPageOfTwo: { versions: [1, 2], total: VERSIONS },
  };
});

describeClientContract('real server', () => target);

const client = (options: Partial<Parameters<typeof createApiClient>[0]> = {}) =>
  createApiClient({ baseUrl: target.baseUrl, apiKey: target.apiKey, ...options });

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('client against the real server', () => {
  it('reads a key, updates a destination with If-Match, lists a page', async () => {
    const key = await client().getKey(workspace.standardKeyHash);
    expect(key).toMatchObject({ hash: workspace.standardKeyHash, name: 'Backend', workspace_id: workspace.id });

    // An empty update reads the destination and its tag.
    const read = await client().updateObservabilityDestination(target.destinationId, {});
    const { response } = await client().raw.PATCH('/observability/destinations/{id}', {
      params: { path: { id: target.destinationId } },
      body: {},
    });
    expect(read.etag).toBe(response.headers.get('etag'));
    const updated = await client().updateObservabilityDestination(
      target.destinationId,
      { privacy_mode: true },
      { ifMatch: read.etag },
    );
    expect(updated.data.privacy_mode).toBe(true);
    expect(updated.etag).not.toBe(read.etag);
    const stale = await apiError(
      client().updateObservabilityDestination(target.destinationId, { privacy_mode: false }, { ifMatch: read.etag }),
    );
    expect(stale).toMatchObject({ status: 412, code: 412 });
    // The 412 carries the current tag; an update on it goes through.
    expect(stale.response.headers.get('etag')).toBe(updated.etag);
    const retried = await client().updateObservabilityDestination(
      target.destinationId,
      { privacy_mode: false },
      { ifMatch: updated.etag },
    );
    expect(retried.data.privacy_mode).toBe(false);

    const page = await client().listPresetVersions('support-agent', { offset: 2, limit: 2 });
    expect(page.data.map((v) => v?.version)).toEqual([3, 4]);
    expect(page.total_count).toBe(VERSIONS);
  });

  it('throws ApiError for every error status the server gives', async () => {
    const standard = client({ apiKey: workspace.standardKey });
    expect(
      await apiError(client({ apiKey: `sk-or-v1-${'f'.repeat(64)}` }).getKey(workspace.standardKeyHash)),
    ).toMatchObject({ status: 401 });
    expect((await apiError(client({ apiKey: 'nope' }).getKey('x'))).response.headers.get('www-authenticate')).toMatch(
      /^Bearer/,
    );
    expect(await apiError(standard.getKey(workspace.standardKeyHash))).toMatchObject({ status: 403 });
    expect(await apiError(client().getKey('0'.repeat(64)))).toMatchObject({ status: 404 });
    const invalid = await apiError(client().updateObservabilityDestination(target.destinationId, { sampling_rate: 2 }));
    expect(invalid).toMatchObject({ status: 400 });
    expect(invalid.metadata?.errors?.map((e) => e.path)).toEqual(['/body/sampling_rate']);
    const badQuery = await apiError(client().listPresetVersions('support-agent', { limit: 101 }));
    expect(badQuery.metadata?.errors?.map((e) => e.path)).toContain('/query/limit');
    expect(await apiError(standard.updateObservabilityDestination(target.destinationId, {}))).toMatchObject({
      status: 403,
    });
    expect(
      await apiError(client().updateObservabilityDestination('7019b9f2-c5e6-4f46-873e-55a17bb095a3', {})),
    ).toMatchObject({ status: 404 });
    expect(
      await apiError(
        client().updateObservabilityDestination(target.destinationId, {
          api_key_hashes: Array.from({ length: 900 }, () => 'h'.repeat(128)),
        }),
      ),
    ).toMatchObject({ status: 413 });
    expect(await apiError(client().listPresetVersions('no-such-preset'))).toMatchObject({ status: 404 });

    const notJson = await client().raw.PATCH('/observability/destinations/{id}', {
      params: { path: { id: target.destinationId } },
      body: {},
      bodySerializer: () => 'enabled=false',
      headers: { 'content-type': 'text/plain' },
    });
    expect(notJson.response.status).toBe(415);
    expect(notJson.error).toMatchObject({ error: { code: 415 } });

    faults.failNext = true;
    expect(await apiError(client().listPresetVersions('support-agent'))).toMatchObject({
      status: 500,
      serverMessage: 'Internal server error.',
    });
    server.logs.length = 0;

    faults.busyCalls = 1;
    const unavailable = await apiError(client().listPresetVersions('support-agent'));
    expect(unavailable).toMatchObject({ status: 503 });
    expect(unavailable.response.headers.get('retry-after')).toBe('1');
  });

  it('names the status, method, URL and request id in the message of an ApiError: a base URL without /api/v1', async () => {
    const wrongBase = client({ baseUrl: server.baseUrl });
    const error = await apiError(wrongBase.getKey(workspace.standardKeyHash));
    const url = `${server.baseUrl}/keys/${workspace.standardKeyHash}`;
    const requestId = error.response.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(error.message).toBe(`404 GET ${url} (request id ${requestId}): ${error.serverMessage}`);
    expect(error.serverMessage).not.toBe('');
    // The id the server logged the request under.
    expect(server.logs.filter((entry) => (entry.req as { id?: string } | undefined)?.id === requestId)).toHaveLength(1);
  });

  it('names the request id a caller sent, as the server echoes it', async () => {
    const traced = client({ headers: { 'X-Request-Id': 'support-ticket-42' } });
    const error = await apiError(traced.listPresetVersions('no-such-preset'));
    expect(error.message).toBe(
      `404 GET ${target.baseUrl}/presets/no-such-preset/versions (request id support-ticket-42): ${error.serverMessage}`,
    );
    expect(error.requestId).toBe('support-ticket-42');
  });

  it('builds from a raw answer the URL it was fetched from, the method unknown', async () => {
    const { error, response } = await client().raw.GET('/keys/{hash}', { params: { path: { hash: '0'.repeat(64) } } });
    const built = ApiError.from(response, error);
    expect(built.message).toBe(
      `404 ${target.baseUrl}/keys/${'0'.repeat(64)} (request id ${built.requestId}): ${built.serverMessage}`,
    );
    expect(built.requestId).toBe(response.headers.get('x-request-id'));
  });

  it('iterates over every version of a preset, a page at a time, lazily', async () => {
    const requests: string[] = [];
    const counting = client({
      fetch: (request) => {
        requests.push(request.url);
        return fetch(request);
      },
    });
    const versions: number[] = [];
    for await (const version of counting.presetVersions('support-agent', { pageSize: 3 }))
      versions.push(version.version);
    expect(versions).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(requests).toHaveLength(3);

    requests.length = 0;
    const firstOnly: number[] = [];
    for await (const version of counting.presetVersions('support-agent', { pageSize: 3 })) {
      firstOnly.push(version.version);
      break;
    }
    expect(firstOnly).toEqual([1]);
    expect(requests).toHaveLength(1);
  });

  it("sends a page's ETag back when asked, and reads the 304 as the page not modified", async () => {
    const api = client();
    const first = await api.presetVersionsPage('support-agent', { limit: 3 });
    expect(first.notModified).toBe(false);
    if (first.notModified) return;
    expect(first.data.data.map((version) => version?.version)).toEqual([1, 2, 3]);
    expect(first.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(await api.presetVersionsPage('support-agent', { limit: 3 }, { ifNoneMatch: first.etag })).toEqual({
      notModified: true,
      etag: first.etag,
    });
    const another = await api.presetVersionsPage('support-agent', { limit: 2 }, { ifNoneMatch: first.etag });
    expect(another.notModified).toBe(false);
    expect(another.etag).not.toBe(first.etag);
  });

  it('retries a 503 after the Retry-After the server sends, when retries are on', async () => {
    faults.busyCalls = 1;
    const started = Date.now();
    const page = await client({ retry: { attempts: 3 } }).listPresetVersions('support-agent', { limit: 1 });
    expect(page.total_count).toBe(VERSIONS);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('does not retry by default, and stops after the attempts allowed', async () => {
    faults.busyCalls = 5;
    expect(await apiError(client().listPresetVersions('support-agent'))).toMatchObject({ status: 503 });
    expect(faults.busyCalls).toBe(4);
    const error = await apiError(client({ retry: { attempts: 2 } }).listPresetVersions('support-agent'));
    expect(error.status).toBe(503);
    expect(faults.busyCalls).toBe(2);
    faults.busyCalls = 0;
  });

  it('retries a 429 with Retry-After, resending the same body', async () => {
    const bodies: string[] = [];
    let first = true;
    const rateLimited = async (request: Request) => {
      bodies.push(await request.clone().text());
      if (first) {
        first = false;
        return new Response(
          JSON.stringify({ error: { code: 429, message: 'Too many requests; retry later.', metadata: null } }),
          {
            status: 429,
            headers: { 'content-type': 'application/json', 'retry-after': '0' },
          },
        );
      }
      return fetch(request);
    };
    const { data: destination } = await client({
      fetch: rateLimited,
      retry: { attempts: 2 },
    }).updateObservabilityDestination(target.destinationId, { sampling_rate: 0.75 });
    expect(destination.sampling_rate).toBe(0.75);
    expect(bodies).toEqual(['{"sampling_rate":0.75}', '{"sampling_rate":0.75}']);
  });

  it('gives up on a call slower than timeoutMs', async () => {
    faults.delayMs = 1000;
    try {
      const error = await client({ timeoutMs: 150 })
        .listPresetVersions('support-agent')
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'TimeoutError' });
    } finally {
      faults.delayMs = 0;
      // The server goes on with the call the client gave up on: it ends before the next test's faults.
      await faults.slowCall;
    }
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
