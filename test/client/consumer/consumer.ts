// A consuming project's code, compiled against the installed package, through its exports.
import { ApiError, type ApiKey, createApiClient } from '@keys-destinations-presets-api/client';
import type { components } from '@keys-destinations-presets-api/client/types';

type Destination = components['schemas']['ObservabilityDestination'];

export async function report(baseUrl: string, apiKey: string): Promise<string> {
  const api = createApiClient({ baseUrl, apiKey, retry: { attempts: 3 }, timeoutMs: 5000 });
  try {
    const key: ApiKey = await api.getKey('cc11728ca6cd47497c5267117fcc2ebcfc3f3d9df55d54c191a4fdb06e178232');
    const { data: destination, etag }: { data: Destination; etag: string } = await api.updateObservabilityDestination(
      '7019b9f2-c5e6-4f46-873e-55a17bb095a3',
      { sampling_rate: 0.5 },
    );
    let versions = 0;
    for await (const version of api.presetVersions('support-agent', { pageSize: 50 }))
      versions += version.version > 0 ? 1 : 0;
    return `${key.label} ${destination.type} ${etag} ${versions}`;
  } catch (err) {
    if (err instanceof ApiError) return `${err.status} ${err.message}`;
    throw err;
  }
}
