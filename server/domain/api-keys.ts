// API keys: `sk-or-v1-` and 64 hex characters. Only the SHA-256 hash of a key is stored.
import { hash, randomBytes } from 'node:crypto';
import type { components } from '../../generated/api.js';
import { apiKeyLabel } from './masking.js';

export type KeyKind = components['schemas']['KeyKind'];

/** A key as the API shows it, but for `limit_remaining`, which is computed from the rest. */
export type StoredApiKey = Omit<components['schemas']['ApiKey'], 'limit_remaining'>;

/** What authenticating with a key needs to know of it. */
export interface KeyCredentials {
  id: string;
  workspace_id: string;
  kind: KeyKind;
  disabled: boolean;
  expires_at: string | null;
}

/** The key a request was authenticated with. */
export interface Caller {
  keyId: string;
  workspaceId: string;
  kind: KeyKind;
}

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
