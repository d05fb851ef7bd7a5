// A consuming script that lets the ApiError of its call go uncaught, for what Node prints of it.
import { createApiClient } from '@keys-destinations-presets-api/client';

const api = createApiClient({ baseUrl: process.env.API_URL ?? '', apiKey: process.env.API_KEY ?? '' });
await api.getKey(process.env.KEY_HASH ?? '');
