// How keys and secrets are shown: never in full.
import { type ConfigValues, secretsOf } from './destination-config-rules.js';

const MASK_OF_SHORT_SECRET = '********';
/** Characters shown at each end of a secret long enough to show any. */
const SHOWN_AT_EACH_END = 4;
/**
 * The shortest secret whose mask shows part of it: a mask then shows 8 characters, never more
 * than a quarter of its secret, so what stays hidden is at least three quarters of any secret.
 */
const SHORTEST_SECRET_SHOWN = 32;

/** `sk-or-v1-0e6...1c96`: the prefix and the first 3 characters of the key, then its last 4. */
export function apiKeyLabel(rawKey: string): string {
  return `${rawKey.slice(0, 12)}...${rawKey.slice(-4)}`;
}

/** First 4 characters, `...`, last 4; a secret shorter than SHORTEST_SECRET_SHOWN shows nothing of itself. */
export function maskSecret(secret: string): string {
  return secret.length < SHORTEST_SECRET_SHOWN
    ? MASK_OF_SHORT_SECRET
    : `${secret.slice(0, SHOWN_AT_EACH_END)}...${secret.slice(-SHOWN_AT_EACH_END)}`;
}

/** Whether a value has the shape of a mask, so that storing it as a secret would be a mistake. */
export function looksMasked(value: string): boolean {
  return value.includes('...') || /^\*+$/.test(value);
}

/** A config as shown to clients: every secret value (secretsOf), and every header value, masked. */
export function maskConfig(config: ConfigValues, secretKeys: ReadonlySet<string>): ConfigValues {
  return Object.fromEntries(
    Object.entries(config).map(([key, value]) => {
      const secrets = secretsOf(key, value, secretKeys);
      if (secrets === 'each header' && typeof value === 'object')
        return [key, Object.fromEntries(Object.entries(value).map(([name, header]) => [name, maskSecret(header)]))];
      return [key, secrets === 'the value' && typeof value === 'string' ? maskSecret(value) : value];
    }),
  );
}
