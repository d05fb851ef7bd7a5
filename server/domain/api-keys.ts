// API keys: `sk-or-v1-` and 64 hex characters. Only the SHA-256 hash of a key is stored.
import { createHash, randomBytes } from 'node:crypto';
import { apiKeyLabel } from './masking.js';

export const API_KEY_PATTERN = /^sk-or-v1-[0-9a-f]{64}$/;

export function hashApiKey(rawKey: string): string {
  return createHash('sha256').update(rawKey).digest('hex');
}

export interface GeneratedApiKey {
  /** Shown once, at creation, and never stored. */
  raw: string;
  hash: string;
  label: string;
}

export function generateApiKey(): GeneratedApiKey {
  const raw = `sk-or-v1-${randomBytes(32).toString('hex')}`;
  return { raw, hash: hashApiKey(raw), label: apiKeyLabel(raw) };
}
