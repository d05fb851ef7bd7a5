// A fetch that retries 429 and 503 after the delay the server asks for in `Retry-After`, a
// bounded number of times, and gives up on a per-call timeout.

export interface RetryOptions {
  /** Attempts in all, the first included (at least 1). */
  attempts: number;
  /** Delay when the response has no usable Retry-After. Default 500 ms. */
  defaultDelayMs?: number;
  /** No wait is longer than this; a longer Retry-After ends the retries. Default 30 s. */
  maxDelayMs?: number;
}

const RETRYABLE = new Set([429, 503]);

const DELAY_SECONDS = /^\d+$/;

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (DELAY_SECONDS.test(value)) return Number(value) * 1000;
  // Each form of HTTP date (RFC 9110 §5.6.7) starts with the day's name; Date.parse alone would take
  // '1.5' or '-1' for dates. Written here rather than once for the module: a mutation run then sees
  // which tests reach it (a module's constant is made as it loads, before any test).
  if (!/^[A-Z][a-z]{2}/.test(value)) return undefined;
  // HTTP dates are in GMT, the asctime form without saying so.
  const date = Date.parse(value.endsWith(' GMT') ? value : `${value} GMT`);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function createRetryingFetch(
  baseFetch: (request: Request) => Promise<Response>,
  options: { retry?: RetryOptions; timeoutMs?: number },
): (request: Request) => Promise<Response> {
  const attempts = Math.max(1, Math.floor(options.retry?.attempts ?? 1));
  const defaultDelayMs = options.retry?.defaultDelayMs ?? 500;
  const maxDelayMs = options.retry?.maxDelayMs ?? 30_000;

  return async (request) => {
    // Without a timeout the caller's request, signal included, goes out as it is: no copy.
    const prepared =
      options.timeoutMs === undefined
        ? request
        : new Request(request, { signal: AbortSignal.any([request.signal, AbortSignal.timeout(options.timeoutMs)]) });
    for (let attempt = 1; ; attempt++) {
      // A body can be read once: while a retry may follow, each attempt sends a copy.
      const last = attempt >= attempts;
      const response = await baseFetch(last || prepared.body === null ? prepared : prepared.clone());
      if (last || !RETRYABLE.has(response.status)) return response;
      const delay = retryAfterMs(response.headers.get('retry-after')) ?? defaultDelayMs;
      if (delay > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(delay, prepared.signal);
    }
  };
}
