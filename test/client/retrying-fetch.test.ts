// The retrying fetch under the client, on its own: which request each attempt hands to the fetch
// below, and that its waits leave no abort listener behind on the request's signal.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createRetryingFetch } from '../../client/retrying-fetch.js';

const URL = 'http://api.test/api/v1/presets/support-agent/versions';

function answers(...statuses: number[]) {
  const received: Request[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    received.push(request);
    const status = statuses[received.length - 1];
    if (status === undefined) throw new Error(`unexpected request #${received.length}`);
    return new Response(status === 200 ? '{}' : null, { status, headers: { 'retry-after': '0' } });
  };
  return { fetch, received };
}

describe('the request each attempt sends', () => {
  it('hands the caller’s own request to every attempt when it has no body and no timeout', async () => {
    const { fetch, received } = answers(503, 429, 200);
    const request = new Request(URL);
    const response = await createRetryingFetch(fetch, { retry: { attempts: 3 } })(request);
    expect(response.status).toBe(200);
    expect(received).toHaveLength(3);
    for (const sent of received) expect(sent).toBe(request);
  });

  it('sends a copy with a body on each attempt that a retry may follow, so the body can be sent again', async () => {
    const bodies: string[] = [];
    const fetch = async (request: Request): Promise<Response> => {
      bodies.push(await request.text());
      return new Response(null, { status: bodies.length < 3 ? 503 : 204, headers: { 'retry-after': '0' } });
    };
    const request = new Request(URL, { method: 'POST', body: '{"name":"x"}' });
    const response = await createRetryingFetch(fetch, { retry: { attempts: 3 } })(request);
    expect(response.status).toBe(204);
    expect(bodies).toEqual(['{"name":"x"}', '{"name":"x"}', '{"name":"x"}']);
  });
});

describe('abort listeners', () => {
  it('leaves no abort listener on the request’s signal after its waits, however many', async () => {
    // Node warns of a leak from the eleventh listener on one signal.
    const { fetch, received } = answers(...Array.from({ length: 11 }, () => 503), 200);
    const request = new Request(URL, { signal: new AbortController().signal });
    const response = await createRetryingFetch(fetch, { retry: { attempts: 12 } })(request);
    expect(response.status).toBe(200);
    expect(received).toHaveLength(12);
    expect(getEventListeners(request.signal, 'abort')).toEqual([]);
  });

  it('leaves no abort listener on the request’s signal after an abort ends a wait', async () => {
    const controller = new AbortController();
    const request = new Request(URL, { signal: controller.signal });
    const fetch = async (): Promise<Response> => {
      setTimeout(() => controller.abort(new Error('stop')), 1);
      return new Response(null, { status: 503, headers: { 'retry-after': '5' } });
    };
    const error = await createRetryingFetch(fetch, { retry: { attempts: 2 } })(request).catch((e: unknown) => e);
    expect(error).toEqual(new Error('stop'));
    expect(getEventListeners(request.signal, 'abort')).toEqual([]);
  });
});
