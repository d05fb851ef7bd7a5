// The client's helpers against a scripted fetch: the ApiError each non-2xx answer becomes, with or
// without the error envelope, the ETag an update must answer with, and how pages are walked.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../../client/index.js';

const BASE_URL = 'http://api.test/api/v1';

function clientAnswering(answer: (request: Request) => Response) {
  const requests: Request[] = [];
  const client = createApiClient({
    baseUrl: BASE_URL,
    apiKey: 'sk-test',
    fetch: async (request) => {
      requests.push(request);
      return answer(request);
    },
  });
  return { client, requests };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

function fields(error: unknown) {
  expect(error).toBeInstanceOf(ApiError);
  const { name, status, code, serverMessage, metadata } = error as ApiError;
  return { name, status, code, serverMessage, metadata };
}

describe('ApiError', () => {
  it('carries the status, code, message and metadata of the error envelope, the message as serverMessage', async () => {
    const metadata = { errors: [{ path: '/body/sampling_rate', message: 'must be <= 1' }] };
    const { client } = clientAnswering(
      () =>
        new Response(JSON.stringify({ error: { code: 400, message: 'Invalid request.', metadata } }), {
          status: 400,
          statusText: 'Bad Request',
          headers: { 'content-type': 'application/json' },
        }),
    );
    const error = await rejection(client.listPresetVersions('support-agent'));
    expect(fields(error)).toEqual({
      name: 'ApiError',
      status: 400,
      code: 400,
      serverMessage: 'Invalid request.',
      metadata,
    });
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toBe(`ApiError: 400 GET ${BASE_URL}/presets/support-agent/versions: Invalid request.`);
  });

  it('has null metadata when the envelope has none', async () => {
    const { client } = clientAnswering(
      () =>
        new Response(JSON.stringify({ error: { code: 404, message: 'Preset not found.' } }), {
          status: 404,
          headers: { 'content-type': 'application/json' },
        }),
    );
    expect(fields(await rejection(client.listPresetVersions('nope')))).toEqual({
      name: 'ApiError',
      status: 404,
      code: 404,
      serverMessage: 'Preset not found.',
      metadata: null,
    });
  });

  const notEnvelopes: Array<{ name: string; body: unknown }> = [
    { name: 'a code that is not a number', body: { error: { code: '502', message: 'upstream failed' } } },
    { name: 'no message', body: { error: { code: 502 } } },
    { name: 'a message that is not a string', body: { error: { code: 502, message: { text: 'upstream failed' } } } },
    { name: 'no error member', body: { message: 'upstream failed' } },
  ];
  for (const { name, body } of notEnvelopes) {
    it(`falls back to the status and its reason phrase for a JSON body with ${name}`, async () => {
      const { client } = clientAnswering(
        () =>
          new Response(JSON.stringify(body), {
            status: 502,
            statusText: 'Bad Gateway',
            headers: { 'content-type': 'application/json' },
          }),
      );
      expect(fields(await rejection(client.listPresetVersions('support-agent')))).toEqual({
        name: 'ApiError',
        status: 502,
        code: 502,
        serverMessage: 'Bad Gateway',
        metadata: null,
      });
    });
  }

  it('falls back to the status and its reason phrase for a body that is not JSON', async () => {
    const { client } = clientAnswering(
      () => new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    const error = await rejection(client.getKey('abc'));
    expect(fields(error)).toEqual({
      name: 'ApiError',
      status: 502,
      code: 502,
      serverMessage: 'Bad Gateway',
      metadata: null,
    });
  });

  it('says "HTTP <status>" when the answer has neither an envelope nor a reason phrase', async () => {
    const { client } = clientAnswering(() => new Response('upstream down', { status: 504 }));
    const error = await rejection(client.getKey('abc'));
    expect(fields(error)).toEqual({
      name: 'ApiError',
      status: 504,
      code: 504,
      serverMessage: 'HTTP 504',
      metadata: null,
    });
    expect((error as ApiError).response.status).toBe(504);
  });
});

describe('ApiError, as it prints', () => {
  const envelope = { error: { code: 412, message: 'The destination has changed since it was read.' } };
  const { client } = clientAnswering(
    () =>
      new Response(JSON.stringify(envelope), {
        status: 412,
        headers: { 'content-type': 'application/json', 'x-request-id': 'req-42' },
      }),
  );

  it('says in one line the status, method, URL and request id of the answer, then the server’s message', async () => {
    const error = (await rejection(
      client.updateObservabilityDestination('dest_1', { privacy_mode: true }, { ifMatch: '"v1"' }),
    )) as ApiError;
    const url = `${BASE_URL}/observability/destinations/dest_1`;
    expect(error.message).toBe(`412 PATCH ${url} (request id req-42): ${envelope.error.message}`);
    expect({ method: error.method, url: error.url, requestId: error.requestId }).toEqual({
      method: 'PATCH',
      url,
      requestId: 'req-42',
    });
  });

  it('prints as its stack alone, the one line first: none of its fields, no Response', async () => {
    const error = (await rejection(client.getKey('abc'))) as ApiError;
    expect(inspect(error)).toBe(error.stack);
    expect(error.stack?.split('\n')[0]).toBe(
      `ApiError: 412 GET ${BASE_URL}/keys/abc (request id req-42): ${envelope.error.message}`,
    );
    expect(error.response.status).toBe(412);
  });

  it('names what it knows when built without the request', () => {
    const error = new ApiError(503, 503, 'Busy.', null, new Response(null, { status: 503 }));
    expect([error.message, error.method, error.url, error.requestId]).toEqual(['503: Busy.', null, null, null]);
  });
});

describe('a 2xx answer without the data promised', () => {
  it('rejects with an ApiError when the answer has no body', async () => {
    const { client } = clientAnswering(() => new Response(null, { status: 204 }));
    const error = await rejection(client.getKey('abc'));
    expect(fields(error)).toEqual({
      name: 'ApiError',
      status: 204,
      code: 204,
      serverMessage: 'HTTP 204',
      metadata: null,
    });
  });
});

describe('updateObservabilityDestination', () => {
  const destination = { id: 'dest_1', privacy_mode: true };

  it('sends If-Match only when ifMatch is given', async () => {
    const { client, requests } = clientAnswering(
      () => new Response(JSON.stringify({ data: destination }), { headers: { etag: '"v2"' } }),
    );
    await client.updateObservabilityDestination('dest_1', { privacy_mode: true });
    await client.updateObservabilityDestination('dest_1', { privacy_mode: true }, { ifMatch: '"v1"' });
    expect(requests.map((request) => request.headers.get('if-match'))).toEqual([null, '"v1"']);
  });

  it('fails with a plain Error when a 2xx answer has no ETag header', async () => {
    const { client } = clientAnswering(
      () => new Response(JSON.stringify({ data: destination }), { headers: { 'content-type': 'application/json' } }),
    );
    const error = await rejection(client.updateObservabilityDestination('dest_1', { privacy_mode: true }));
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toEqual(new Error('The answer has no ETag header (a server across origins must expose it)'));
  });
});

describe('presetVersionsPage', () => {
  const page = { data: [], total: 0, limit: 100, offset: 0 };

  it('fails with a plain Error when a 200 has no ETag header', async () => {
    const { client } = clientAnswering(
      () => new Response(JSON.stringify(page), { headers: { 'content-type': 'application/json' } }),
    );
    const error = await rejection(client.presetVersionsPage('support-agent'));
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).toEqual(new Error('The answer has no ETag header (a server across origins must expose it)'));
  });

  it('takes a 304 as not modified, with its ETag, else the one asked with, else none', async () => {
    const { client } = clientAnswering((request) =>
      request.headers.get('if-none-match') === '"v1"'
        ? new Response(null, { status: 304, headers: { etag: '"v3"' } })
        : new Response(null, { status: 304 }),
    );
    expect(await client.presetVersionsPage('support-agent', {}, { ifNoneMatch: '"v1"' })).toEqual({
      notModified: true,
      etag: '"v3"',
    });
    expect(await client.presetVersionsPage('support-agent', {}, { ifNoneMatch: '"v2"' })).toEqual({
      notModified: true,
      etag: '"v2"',
    });
    expect(await client.presetVersionsPage('support-agent')).toEqual({ notModified: true, etag: '' });
  });
});

describe('presetVersions', () => {
  function version(n: number) {
    return { id: `v${n}`, version: n };
  }

  it('asks for each page from the offset reached, and skips null entries', async () => {
    const pages = [
      { data: [version(1), null], total_count: 5 },
      { data: [version(3), version(4)], total_count: 5 },
      { data: [version(5)], total_count: 5 },
    ];
    const { client, requests } = clientAnswering(() => new Response(JSON.stringify(pages[requests.length - 1])));
    const seen: unknown[] = [];
    for await (const v of client.presetVersions('support-agent', { pageSize: 2 })) seen.push(v);
    expect(seen).toEqual([version(1), version(3), version(4), version(5)]);
    expect(requests.map((request) => request.url)).toEqual([
      `${BASE_URL}/presets/support-agent/versions?offset=0&limit=2`,
      `${BASE_URL}/presets/support-agent/versions?offset=2&limit=2`,
      `${BASE_URL}/presets/support-agent/versions?offset=4&limit=2`,
    ]);
  });

  it('stops at an empty page even when the total promises more', async () => {
    // Versions deleted while the pages are walked: the total no longer matches.
    const pages = [
      { data: [version(1), version(2)], total_count: 6 },
      { data: [], total_count: 6 },
    ];
    const { client, requests } = clientAnswering(() => {
      const page = pages[requests.length - 1];
      if (page === undefined) throw new Error('asked for a page after the empty one');
      return new Response(JSON.stringify(page));
    });
    const seen: unknown[] = [];
    for await (const v of client.presetVersions('support-agent', { pageSize: 2 })) seen.push(v);
    expect(seen).toEqual([version(1), version(2)]);
    expect(requests).toHaveLength(2);
  });

  it('asks for pages of 100 by default', async () => {
    const { client, requests } = clientAnswering(() => new Response(JSON.stringify({ data: [], total_count: 0 })));
    for await (const v of client.presetVersions('support-agent')) throw new Error(`unexpected ${JSON.stringify(v)}`);
    expect(requests.map((request) => request.url)).toEqual([
      `${BASE_URL}/presets/support-agent/versions?offset=0&limit=100`,
    ]);
  });
});
