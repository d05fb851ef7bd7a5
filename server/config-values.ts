// How a variable's value is read: each parser takes the text (absent or empty: the default) and
// returns the value, or throws a ConfigError saying in one line what the variable takes.
import { isIP } from 'node:net';
import { ConfigError } from './config-error.js';

export function parsePort(value: string | undefined, name = 'PORT'): number {
  if (value === undefined || value === '') return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`${name} must be an integer from 0 to 65535, got ${JSON.stringify(value)}`);
  return port;
}

/** METRICS_PORT: absent for no metrics; never the API's port (0, any free port, excepted). */
export function parseMetricsPort(value: string | undefined, apiPort: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  const port = parsePort(value, 'METRICS_PORT');
  if (port !== 0 && port === apiPort)
    throw new ConfigError(
      `METRICS_PORT must differ from PORT (${apiPort}): the metrics are never served on the API's port`,
    );
  return port;
}

export function parsePositiveInteger(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1)
    throw new ConfigError(`${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return number;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function parseLogLevel(value: string | undefined): string {
  if (value === undefined || value === '') return 'info';
  if (!LOG_LEVELS.includes(value))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(value)}`);
  return value;
}

/**
 * TRUST_PROXY as Express takes it: true or false, a number of proxy hops, or a comma-separated
 * list of proxy addresses and subnets (`loopback`, `10.0.0.0/8`...).
 */
export function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value.trim() === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
  for (const entry of value.split(',').map((part) => part.trim())) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address);
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!named.has(entry) && (family === 0 || !validBits))
      throw new ConfigError(
        `TRUST_PROXY must be true, false, a number of hops, or addresses and subnets (loopback, 10.0.0.0/8...), got ${JSON.stringify(entry)}`,
      );
  }
  return value;
}

/** PUBLIC_URL: an http(s) URL, perhaps with a path prefix, but no credentials, query or fragment. */
export function parsePublicUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.search || url.hash)
    throw new ConfigError(
      `PUBLIC_URL must be an http:// or https:// URL without credentials, query or fragment (e.g. https://api.example.com), got ${JSON.stringify(value)}`,
    );
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

export function parseBoolean(value: string | undefined, name: string, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(value)}`);
}

export function parseNonNegativeInteger(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0)
    throw new ConfigError(`${name} must be an integer of 0 or more, got ${JSON.stringify(value)}`);
  return number;
}

/** A secrets key as the environment gives it: 32 bytes in base64; `source` names where it was read. */
export function decodeSecretsKey(value: string, source: string): Buffer {
  const key = Buffer.from(value.trim(), 'base64');
  if (key.length !== 32)
    throw new ConfigError(`${source} must be 32 bytes encoded in base64 (got ${key.length} bytes)`);
  return key;
}
