// The client tests that do not depend on stored state: they run against the real server and
// against a mock that Prism serves from openapi.yaml alone.
import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../../client/index.js';
import { componentSchema, describeErrors } from '../support/spec.js';

export interface ContractTarget {
  baseUrl: string;
  apiKey: string;
  keyHash: string;
  destinationId: string;
  presetSlug: string;
  /** What the first page of two of `presetSlug` holds: its version numbers and the total. */
  firstPageOfTwo: { versions: number[]; total: number };
}

function expectValid(schemaName: string, value: unknown) {
  const validate = componentSchema(schemaName);
  expect(validate(value), describeErrors(validate.errors)).toBe(true);
}

export function describeClientContract(name: string, target: () => ContractTarget) {
  describe(`client contract (${name})`, () => {
    const client = () => createApiClient({ baseUrl: target().baseUrl, apiKey: target().apiKey });

    it('getKey resolves to an API key', async () => {
      const key = await client().getKey(target().keyHash);
      expectValid('ApiKey', key);
      expect(key.hash).toBe(target().keyHash);
    });

    it('updateObservabilityDestination resolves to the updated destination and its ETag', async () => {
      const { data: destination, etag } = await client().updateObservabilityDestination(target().destinationId, {
        sampling_rate: 0.25,
      });
      expectValid('ObservabilityDestination', destination);
      expect(destination.id).toBe(target().destinationId);
      expect(etag).toMatch(/^"[^"]+"$/);
    });

    it('listPresetVersions resolves to a page', async () => {
      const page = await client().listPresetVersions(target().presetSlug, { offset: 0, limit: 2 });
      expectValid('PresetVersionList', page);
      expect(page.data.map((version) => version?.version)).toEqual(target().firstPageOfTwo.versions);
      expect(page.total_count).toBe(target().firstPageOfTwo.total);
    });

    it('throws ApiError with the envelope of a 400 and its field errors', async () => {
      const error = await client()
        .listPresetVersions(target().presetSlug, { limit: 0 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      const apiError = error as ApiError;
      expect(apiError).toMatchObject({ status: 400, code: 400 });
      // Prism answers with the spec's example; the server names the field itself (see server.test.ts).
      expect(apiError.metadata?.errors?.length).toBeGreaterThan(0);
      expect(apiError.metadata?.errors?.every((e) => e.path.startsWith('/'))).toBe(true);
      expect(apiError.response.status).toBe(400);
    });

    it('throws ApiError 401 without a key', async () => {
      const error = await createApiClient({ baseUrl: target().baseUrl, apiKey: '' })
        .getKey(target().keyHash)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(401);
    });

    it('gives raw access in the openapi-fetch style, authenticated', async () => {
      const { data, error, response } = await client().raw.GET('/keys/{hash}', {
        params: { path: { hash: target().keyHash } },
      });
      expect(error).toBeUndefined();
      expect(response.status).toBe(200);
      expectValid('ApiKeyResponse', data);
    });
  });
}
