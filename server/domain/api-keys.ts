// API keys: `sk-or-v1-` and 64 hex characters. Only the SHA-256 hash of a key is stored.
import { hash, randomBytes } from 'node:crypto';
import { apiKeyLabel } from './masking.js';

export const API_KEY_PATTERN = /^sk-or-v1-[0-9a-f]{64}$/;

export function hashApiKey(rawKey: string): string {
  // The one-shot form: no Hash object per request.
  return hash('sha256', rawKey, 'hex');
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
