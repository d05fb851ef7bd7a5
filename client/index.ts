// A thin typed client over openapi-fetch. Every request and response type comes from
// generated/api.ts, that is from openapi.yaml, and nothing else.
import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from '../generated/api.js';
import { ApiError } from './errors.js';
import { createRetryingFetch, type RetryOptions } from './retrying-fetch.js';

export type { components, operations, paths } from '../generated/api.js';
export { ApiError, type ErrorMetadata, type ErrorRequest } from './errors.js';
export { type RetryOptions, retryAfterMs } from './retrying-fetch.js';

export type ApiKey = components['schemas']['ApiKey'];
export type ObservabilityDestination = components['schemas']['ObservabilityDestination'];
export type ObservabilityDestinationUpdate = components['schemas']['ObservabilityDestinationUpdate'];
export type PresetVersion = components['schemas']['PresetVersion'];
export type PresetVersionPage = components['schemas']['PresetVersionList'];
export type ListPresetVersionsQuery = NonNullable<operations['listPresetVersions']['parameters']['query']>;

export interface ApiClientOptions {
  /** The API's base URL, with its version prefix: `http://127.0.0.1:3000/api/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
  /** A fetch to use instead of the global one (tests, proxies, instrumentation). */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers added to every request. */
  headers?: Record<string, string>;
  /** Retries of 429 and 503 honouring Retry-After; off unless given. */
  retry?: RetryOptions;
  /** Per-call timeout, retries included; the call rejects with a `TimeoutError` DOMException. */
  timeoutMs?: number;
}

/** A resource with the entity tag of the version answered, to send back in `ifMatch`. */
export interface Tagged<T> {
  data: T;
  etag: string;
}

export interface ApiClient {
  /** The underlying openapi-fetch client, with authentication, retries and timeout applied. */
  raw: Client<paths>;
  getKey(hash: string): Promise<ApiKey>;
  /**
   * Updates the fields given, and resolves to the destination with its ETag. With `ifMatch`, the
   * update happens only if the destination is still at that tag (otherwise an ApiError 412, and
   * nothing changes). An empty update changes nothing: it reads the destination and its ETag.
   */
  updateObservabilityDestination(
    id: string,
    body: ObservabilityDestinationUpdate,
    options?: { ifMatch?: string },
  ): Promise<Tagged<ObservabilityDestination>>;
  listPresetVersions(slug: string, query?: ListPresetVersionsQuery): Promise<PresetVersionPage>;
  /**
   * A page with its ETag. Given `ifNoneMatch` (an `etag` this method resolved to before, for the
   * same slug and query), resolves to `{ notModified: true }` while the page is still that one:
   * the server answers 304 and sends no page.
   */
  presetVersionsPage(
    slug: string,
    query?: ListPresetVersionsQuery,
    options?: { ifNoneMatch?: string },
  ): Promise<(Tagged<PresetVersionPage> & { notModified: false }) | { notModified: true; etag: string }>;
  /** Every version of a preset, in order, fetching pages lazily. */
  presetVersions(slug: string, options?: { pageSize?: number }): AsyncIterableIterator<PresetVersion>;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retryingFetch = createRetryingFetch(baseFetch, {
    ...(options.retry && { retry: options.retry }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
  });
  // openapi-fetch answers the response without the request it built: an ApiError names both.
  const requestOf = new WeakMap<Response, Request>();
  const raw = createClient<paths>({
    baseUrl: options.baseUrl,
    fetch: async (request) => {
      const response = await retryingFetch(request);
      requestOf.set(response, request);
      return response;
    },
    // Base headers rather than a middleware: no pass over every request.
    headers: { ...options.headers, Authorization: `Bearer ${options.apiKey}` },
  });

  function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
    if (!result.response.ok || result.data === undefined)
      throw ApiError.from(result.response, result.error, requestOf.get(result.response));
    return result.data;
  }

  const client: ApiClient = {
    raw,

    async getKey(hash) {
      return unwrap(await raw.GET('/keys/{hash}', { params: { path: { hash } } })).data;
    },

    async updateObservabilityDestination(id, body, { ifMatch } = {}) {
      const result = await raw.PATCH('/observability/destinations/{id}', {
        params: { path: { id }, ...(ifMatch !== undefined && { header: { 'If-Match': ifMatch } }) },
        body,
      });
      const { data } = unwrap(result);
      const etag = result.response.headers.get('ETag');
      // The contract promises the header; in a browser, CORS must also expose it.
      if (etag === null) throw new Error('The answer has no ETag header (a server across origins must expose it)');
      return { data, etag };
    },

    async listPresetVersions(slug, query = {}) {
      return unwrap(await raw.GET('/presets/{slug}/versions', { params: { path: { slug }, query } }));
    },

    async presetVersionsPage(slug, query = {}, { ifNoneMatch } = {}) {
      const result = await raw.GET('/presets/{slug}/versions', {
        params: {
          path: { slug },
          query,
          ...(ifNoneMatch !== undefined && { header: { 'If-None-Match': ifNoneMatch } }),
        },
      });
      const etag = result.response.headers.get('ETag');
      if (result.response.status === 304) return { notModified: true, etag: etag ?? ifNoneMatch ?? '' };
      const data = unwrap(result);
      if (etag === null) throw new Error('The answer has no ETag header (a server across origins must expose it)');
      return { notModified: false, data, etag };
    },

    async *presetVersions(slug, { pageSize = 100 } = {}) {
      for (let offset = 0; ; ) {
        const page = await client.listPresetVersions(slug, { offset, limit: pageSize });
        for (const version of page.data) if (version !== null) yield version;
        offset += page.data.length;
        if (page.data.length === 0 || offset >= page.total_count) return;
      }
    },
  };
  return client;
}
