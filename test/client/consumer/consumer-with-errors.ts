// The same kind of code with mistakes a consumer could make: it must not compile.
import { createApiClient } from '@keys-destinations-presets-api/client';

export async function broken(): Promise<void> {
  const api = createApiClient({ baseUrl: 'http://127.0.0.1:3000/api/v1', apiKey: 'sk' });
  await api.updateObservabilityDestination('7019b9f2-c5e6-4f46-873e-55a17bb095a3', { samplingRate: 0.5 });
  await api.listPresetVersions('support-agent', { limit: '50' });
  const key = await api.getKey('abc');
  key.usage_total.toFixed();
}
