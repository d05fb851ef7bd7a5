// The client's retries of 429 and 503 against a scripted fetch, on a fake clock: how long it waits
// for each form of Retry-After, when it gives up, what it resends, and how an abort ends a wait.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiClientOptions, ApiError, createApiClient, retryAfterMs } from '../../client/index.js';

const BASE_URL = 'http://api.test/api/v1';
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const PAGE = { data: [], total_count: 0 };

interface Sent {
  method: string;
  url: string;
  ifMatch: string | null;
  authorization: string | null;
  body: string;
}

/** A fetch that answers with the given responses in turn and records what each request carried. */
function scriptedFetch(...answers: Array<() => Response>) {
  const sent: Sent[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    // Reading the body, as a real fetch does, leaves the request unusable for a second send.
    sent.push({
      method: request.method,
      url: request.url,
      ifMatch: request.headers.get('if-match'),
      authorization: request.headers.get('authorization'),
      body: await request.text(),
    });
    const answer = answers[sent.length - 1];
    if (answer === undefined) throw new Error(`unexpected request #${sent.length}`);
    return answer();
  };
  return { fetch, sent };
}

function busy(status: 429 | 503, retryAfter?: string): () => Response {
  const message = status === 429 ? 'Too many requests; retry later.' : 'Service unavailable; retry later.';
  return () =>
    new Response(JSON.stringify({ error: { code: status, message, metadata: null } }), {
      status,
      headers: { 'content-type': 'application/json', ...(retryAfter !== undefined && { 'retry-after': retryAfter }) },
    });
}

function json(body: unknown, headers: Record<string, string> = {}): () => Response {
  return () => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', ...headers } });
}

function client(fetch: (request: Request) => Promise<Response>, options: Partial<ApiClientOptions> = {}) {
  return createApiClient({ baseUrl: BASE_URL, apiKey: 'sk-test', fetch, ...options });
}

type Outcome<T> = { value: T } | { error: unknown } | undefined;

/** Starts watching a promise; `outcome()` tells whether it has settled so far, and how. */
function watch<T>(promise: Promise<T>): () => Outcome<T> {
  let outcome: Outcome<T>;
  promise.then(
    (value) => {
      outcome = { value };
    },
    (error: unknown) => {
      outcome = { error };
    },
  );
  return () => outcome;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: NOW });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('how long the client waits before a retry', () => {
  const cases: Array<{ name: string; retryAfter: string | undefined; waitMs: number }> = [
    { name: 'seconds with spaces around', retryAfter: ' 2 ', waitMs: 2000 },
    { name: 'seconds of more than one digit', retryAfter: '12', waitMs: 12_000 },
    { name: 'zero seconds', retryAfter: '0', waitMs: 0 },
    { name: 'an HTTP date (IMF-fixdate)', retryAfter: new Date(NOW + 3000).toUTCString(), waitMs: 3000 },
    { name: 'an HTTP date in the RFC 850 form', retryAfter: 'Thursday, 15-Jan-26 12:00:04 GMT', waitMs: 4000 },
    { name: 'an HTTP date already past', retryAfter: new Date(NOW - 60_000).toUTCString(), waitMs: 0 },
    { name: 'garbage (the default delay)', retryAfter: '12abc', waitMs: 500 },
    { name: 'a fraction of seconds (the default delay)', retryAfter: '1.5', waitMs: 500 },
    { name: 'negative seconds (the default delay)', retryAfter: '-1', waitMs: 500 },
    { name: 'an empty header (the default delay)', retryAfter: '', waitMs: 500 },
    { name: 'no header (the default delay)', retryAfter: undefined, waitMs: 500 },
  ];

  for (const { name, retryAfter, waitMs } of cases) {
    it(`waits exactly the Retry-After given as ${name}`, async () => {
      const { fetch, sent } = scriptedFetch(busy(503, retryAfter), json(PAGE));
      const outcome = watch(client(fetch, { retry: { attempts: 2 } }).listPresetVersions('support-agent'));

      if (waitMs > 0) {
        await vi.advanceTimersByTimeAsync(waitMs - 1);
        expect(sent).toHaveLength(1);
        expect(outcome()).toBeUndefined();
      }
      await vi.advanceTimersByTimeAsync(1);
      expect(sent).toHaveLength(2);
      expect(outcome()).toEqual({ value: PAGE });
    });
  }

  it('waits defaultDelayMs when the response has no usable Retry-After', async () => {
    const { fetch, sent } = scriptedFetch(busy(429, 'soon'), json(PAGE));
    const outcome = watch(
      client(fetch, { retry: { attempts: 2, defaultDelayMs: 250 } }).listPresetVersions('support-agent'),
    );
    await vi.advanceTimersByTimeAsync(249);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
    expect(outcome()).toEqual({ value: PAGE });
  });

  it('reads Retry-After in seconds, trimmed, or as an HTTP date, and nothing else', () => {
    expect(retryAfterMs(' 7 ', NOW)).toBe(7000);
    expect(retryAfterMs('\t15\t', NOW)).toBe(15_000);
    expect(retryAfterMs('120', NOW)).toBe(120_000);
    expect(retryAfterMs(new Date(NOW + 90_000).toUTCString(), NOW)).toBe(90_000);
    expect(retryAfterMs('Thursday, 15-Jan-26 12:00:30 GMT', NOW)).toBe(30_000);
    expect(retryAfterMs('12abc', NOW)).toBeUndefined();
    expect(retryAfterMs('abc12', NOW)).toBeUndefined();
    expect(retryAfterMs('1e3', NOW)).toBeUndefined();
    expect(retryAfterMs('', NOW)).toBeUndefined();
    expect(retryAfterMs('  ', NOW)).toBeUndefined();
  });

  it('takes no number but whole seconds, whatever Date.parse would make of it', () => {
    for (const notSeconds of ['1.5', '-1', '+5', '0x10', '2026-01-15T12:00:30Z']) {
      expect(retryAfterMs(notSeconds, NOW)).toBeUndefined();
    }
  });

  it('reads an HTTP date in the asctime form as GMT, in any time zone of the machine', () => {
    // 12:00:30 GMT on the day NOW falls on; the process runs in whatever zone its machine has.
    const asctime = new Date(NOW + 30_000)
      .toUTCString()
      .replace(/^(\w{3}), (\d{2}) (\w{3}) (\d{4}) ([\d:]{8}) GMT$/, '$1 $3 $2 $5 $4');
    expect(asctime).toMatch(/^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2} \d{4}$/);
    expect(retryAfterMs(asctime, NOW)).toBe(30_000);
  });
});

describe('when the client gives up', () => {
  it('returns the busy answer at once when Retry-After is longer than maxDelayMs', async () => {
    const { fetch, sent } = scriptedFetch(busy(429, '3'), json(PAGE));
    const outcome = watch(
      client(fetch, { retry: { attempts: 3, maxDelayMs: 2999 } }).listPresetVersions('support-agent'),
    );
    await vi.advanceTimersByTimeAsync(0);
    const result = outcome();
    expect(result).toEqual({ error: expect.any(ApiError) });
    const error = (result as { error: ApiError }).error;
    expect({ status: error.status, serverMessage: error.serverMessage }).toEqual({
      status: 429,
      serverMessage: 'Too many requests; retry later.',
    });
    expect(error.response.headers.get('retry-after')).toBe('3');
    expect(sent).toHaveLength(1);
  });

  it('still waits a Retry-After equal to maxDelayMs', async () => {
    const { fetch, sent } = scriptedFetch(busy(429, '3'), json(PAGE));
    const outcome = watch(
      client(fetch, { retry: { attempts: 3, maxDelayMs: 3000 } }).listPresetVersions('support-agent'),
    );
    await vi.advanceTimersByTimeAsync(2999);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
    expect(outcome()).toEqual({ value: PAGE });
  });

  it('bounds a wait to 30 seconds by default', async () => {
    const tooLong = scriptedFetch(busy(503, '31'), json(PAGE));
    const gaveUp = watch(client(tooLong.fetch, { retry: { attempts: 2 } }).listPresetVersions('support-agent'));
    await vi.advanceTimersByTimeAsync(0);
    expect(gaveUp()).toEqual({ error: expect.any(ApiError) });
    expect(tooLong.sent).toHaveLength(1);

    const longest = scriptedFetch(busy(503, '30'), json(PAGE));
    const waited = watch(client(longest.fetch, { retry: { attempts: 2 } }).listPresetVersions('support-agent'));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(longest.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(waited()).toEqual({ value: PAGE });
  });

  it('throws the last busy answer once the attempts are spent, without a last wait', async () => {
    const { fetch, sent } = scriptedFetch(busy(503, '1'), busy(429, '1'), busy(503, '1'), json(PAGE));
    const outcome = watch(client(fetch, { retry: { attempts: 3 } }).listPresetVersions('support-agent'));
    await vi.advanceTimersByTimeAsync(2000);
    const result = outcome();
    expect(result).toEqual({ error: expect.any(ApiError) });
    expect((result as { error: ApiError }).error.status).toBe(503);
    expect(sent).toHaveLength(3);
  });

  it('does not retry a status other than 429 and 503', async () => {
    const { fetch, sent } = scriptedFetch(
      () => new Response(JSON.stringify({ error: { code: 500, message: 'Internal server error.' } }), { status: 500 }),
      json(PAGE),
    );
    const outcome = watch(client(fetch, { retry: { attempts: 3 } }).listPresetVersions('support-agent'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(outcome()).toEqual({ error: expect.any(ApiError) });
    expect(sent).toHaveLength(1);
  });
});

describe('what a retry resends', () => {
  it('resends the same method, URL, headers and body on every attempt', async () => {
    // Real timers: the copies' bodies are read through streams, which a fake clock does not drive.
    vi.useRealTimers();
    const destination = { id: 'dest_1', sampling_rate: 0.5 };
    const { fetch, sent } = scriptedFetch(
      busy(503, '0'),
      busy(429, '0'),
      json({ data: destination }, { etag: '"v2"' }),
    );
    const result = await client(fetch, { retry: { attempts: 3 } }).updateObservabilityDestination(
      'dest_1',
      { sampling_rate: 0.5 },
      { ifMatch: '"v1"' },
    );
    expect(result).toEqual({ data: destination, etag: '"v2"' });
    const request = {
      method: 'PATCH',
      url: `${BASE_URL}/observability/destinations/dest_1`,
      ifMatch: '"v1"',
      authorization: 'Bearer sk-test',
      body: '{"sampling_rate":0.5}',
    };
    expect(sent).toEqual([request, request, request]);
  });
});

describe('abort and timeout during a retry', () => {
  it('rejects with the abort reason as soon as the caller aborts during the wait, and sends nothing more', async () => {
    const { fetch, sent } = scriptedFetch(busy(503, '10'), json(PAGE));
    const controller = new AbortController();
    const reason = new Error('the user left');
    const outcome = watch(
      client(fetch, { retry: { attempts: 3 } }).raw.GET('/presets/{slug}/versions', {
        params: { path: { slug: 'support-agent' } },
        signal: controller.signal,
      }),
    );
    await vi.advanceTimersByTimeAsync(1000);
    expect(outcome()).toBeUndefined();
    controller.abort(reason);
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome()).toEqual({ error: reason });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent).toHaveLength(1);
  });

  it('does not wait at all when the caller aborted while the busy answer was on its way', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    const { fetch, sent } = scriptedFetch(() => {
      controller.abort(reason);
      return busy(503, '1')();
    }, json(PAGE));
    const outcome = watch(
      client(fetch, { retry: { attempts: 2 } }).raw.GET('/presets/{slug}/versions', {
        params: { path: { slug: 'support-agent' } },
        signal: controller.signal,
      }),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(outcome()).toEqual({ error: reason });
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toHaveLength(1);
  });

  it('ends a wait for Retry-After when timeoutMs runs out, with a TimeoutError', async () => {
    // The timeout runs on the real clock; the wait it cuts short is on the fake one.
    const { fetch, sent } = scriptedFetch(busy(503, '10'), json(PAGE));
    const error = await client(fetch, { retry: { attempts: 2 }, timeoutMs: 20 })
      .listPresetVersions('support-agent')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('TimeoutError');
    expect(sent).toHaveLength(1);
  });
});
