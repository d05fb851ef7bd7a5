// The straightforward baseline's masking of a destination's secrets in its answers
// (straightforward.ts): the config's secret fields and every header value, by their length alone.
export type Config = Record<string, string | Record<string, string>>;

const SECRET_CONFIG_KEYS = new Set([
  'apiKey',
  'spaceKey',
  'password',
  'publicKey',
  'secretKey',
  'licenseKey',
  'accessKeyId',
  'secretAccessKey',
  'sessionToken',
  'dsn',
  'token',
]);
const mask = (secret: string) => (secret.length < 32 ? '********' : `${secret.slice(0, 4)}...${secret.slice(-4)}`);

export function maskedConfig(config: Config): Config {
  const shown: Config = {};
  for (const [key, value] of Object.entries(config)) {
    if (typeof value === 'object')
      shown[key] = Object.fromEntries(Object.entries(value).map(([name, header]) => [name, mask(header)]));
    else shown[key] = SECRET_CONFIG_KEYS.has(key) ? mask(value) : value;
  }
  return shown;
}
