// How keys and secrets are shown: never in full.

const MASK_OF_SHORT_SECRET = '********';

/** `sk-or-v1-0e6...1c96`: the prefix and the first 3 characters of the key, then its last 4. */
export function apiKeyLabel(rawKey: string): string {
  return `${rawKey.slice(0, 12)}...${rawKey.slice(-4)}`;
}

/** First 4 characters, `...`, last 4; a secret of 12 characters or fewer shows nothing of itself. */
export function maskSecret(secret: string): string {
  return secret.length <= 12 ? MASK_OF_SHORT_SECRET : `${secret.slice(0, 4)}...${secret.slice(-4)}`;
}

/** Whether a value has the shape of a mask, so that storing it as a secret would be a mistake. */
export function looksMasked(value: string): boolean {
  return value.includes('...') || /^\*+$/.test(value);
}

/** A config as shown to clients: every secret value, and every header value, masked. */
export function maskConfig(
  config: Record<string, string | Record<string, string>>,
  secretKeys: ReadonlySet<string>,
): Record<string, string | Record<string, string>> {
  return Object.fromEntries(
    Object.entries(config).map(([key, value]) => [
      key,
      typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([name, headerValue]) => [name, maskSecret(headerValue)]))
        : secretKeys.has(key)
          ? maskSecret(value)
          : value,
    ]),
  );
}
