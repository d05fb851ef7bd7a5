// Type-level tests, run by vitest's typecheck mode (`npm test`) and by `npm run typecheck`: every
// type of the client comes from the generated contract, and a wrong field name or parameter type
// does not compile. A failing expectTypeOf, or an @ts-expect-error with no error, fails the run.
import { describe, expectTypeOf, it } from 'vitest';
import { type ApiClient, createApiClient } from '../../client/index.js';
import type { components, operations } from '../../generated/api.js';

type Schemas = components['schemas'];

describe('client types', () => {
  it('resolves each helper to the generated payload type', () => {
    expectTypeOf<ApiClient['getKey']>().returns.resolves.toEqualTypeOf<Schemas['ApiKey']>();
    expectTypeOf<ApiClient['updateObservabilityDestination']>().returns.resolves.toEqualTypeOf<{
      data: Schemas['ObservabilityDestination'];
      etag: string;
    }>();
    expectTypeOf<ApiClient['listPresetVersions']>().returns.resolves.toEqualTypeOf<Schemas['PresetVersionList']>();
    expectTypeOf<ApiClient['updateObservabilityDestination']>()
      .parameter(1)
      .toEqualTypeOf<Schemas['ObservabilityDestinationUpdate']>();
    expectTypeOf<ApiClient['listPresetVersions']>()
      .parameter(1)
      .toEqualTypeOf<NonNullable<operations['listPresetVersions']['parameters']['query']> | undefined>();
    expectTypeOf<ReturnType<ApiClient['presetVersions']>>().toEqualTypeOf<
      AsyncIterableIterator<Schemas['PresetVersion']>
    >();
  });

  it('rejects wrong field names and parameter types at compile time', () => {
    // Never called: only type-checked.
    const _misuse = async (api: ApiClient) => {
      // @ts-expect-error: the field is sampling_rate
      await api.updateObservabilityDestination('id', { samplingRate: 0.5 });
      // @ts-expect-error: sampling_rate is a number
      await api.updateObservabilityDestination('id', { sampling_rate: '0.5' });
      // @ts-expect-error: limit is a number
      await api.listPresetVersions('slug', { limit: '10' });
      // @ts-expect-error: there is no page parameter
      await api.listPresetVersions('slug', { page: 2 });
      const key = await api.getKey('hash');
      // @ts-expect-error: the key itself is never returned
      void key.key;
      // @ts-expect-error: the raw client knows only the spec's paths
      await api.raw.GET('/keys', {});
      // @ts-expect-error: apiKey is required
      createApiClient({ baseUrl: 'http://127.0.0.1:3000/api/v1' });
    };
  });
});
