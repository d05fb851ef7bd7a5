// Creating workspaces, keys, destinations, preset versions and usage records: what the CLI and
// the demo seed do. Every input is checked here, with the same rules as the API.
import type { components } from '../generated/api.js';
import { generateApiKey } from './domain/api-keys.js';
import { normalizeFilterRules, type DestinationState } from './domain/destination-patch.js';
import { HEADERS_KEY, type ConfigValues, type DestinationType, type DestinationTypeRules } from './domain/destination-types.js';
import { FieldValidationError, type FieldError } from './domain/field-errors.js';
import { looksMasked } from './domain/masking.js';
import type { StoredDestination } from './store/destinations.js';
import type { Store } from './store/index.js';

type ApiKey = components['schemas']['ApiKey'];
type PresetConfig = components['schemas']['PresetConfig'];

export interface NewKeyInput {
  workspaceId: string;
  name: string;
  kind: 'management' | 'standard';
  limit?: number | null;
  limitReset?: ApiKey['limit_reset'];
  includeByokInLimit?: boolean;
  disabled?: boolean;
  expiresAt?: string | null;
  creatorUserId?: string | null;
}

// The bounds openapi.yaml gives these fields in responses: what is provisioned must fit them.
const MAX_NAME = 256;
const MAX_IDENTIFIER = 256;
const MAX_SYSTEM_PROMPT = 100_000;

function checkLength(value: string | null | undefined, max: number, what: string): void {
  if (value != null && (value.length === 0 || value.length > max)) throw new Error(`${what} must have 1 to ${max} characters`);
}

export async function createKey(store: Store, input: NewKeyInput, now: Date): Promise<{ rawKey: string; hash: string; id: string }> {
  checkLength(input.name, MAX_NAME, 'name');
  checkLength(input.creatorUserId, MAX_IDENTIFIER, 'creator_user_id');
  if (input.limit != null && !(input.limit >= 0)) throw new Error('limit must be a number >= 0');
  if (input.expiresAt != null && Number.isNaN(Date.parse(input.expiresAt))) throw new Error('expires_at must be an ISO 8601 timestamp');
  const key = generateApiKey();
  const row = await store.keys.create(
    {
      workspace_id: input.workspaceId,
      hash: key.hash,
      label: key.label,
      name: input.name,
      kind: input.kind,
      spend_limit: input.limit ?? null,
      limit_reset: input.limitReset ?? null,
      include_byok_in_limit: input.includeByokInLimit ?? false,
      disabled: input.disabled ?? false,
      expires_at: input.expiresAt == null ? null : new Date(input.expiresAt).toISOString(),
      creator_user_id: input.creatorUserId ?? null,
    },
    now,
  );
  return { rawKey: key.raw, hash: row.hash, id: row.id };
}

export interface NewDestinationInput extends Partial<Omit<DestinationState, 'config'>> {
  workspaceId: string;
  type: string;
  config: ConfigValues;
}

export async function createDestination(
  store: Store,
  destinationTypes: ReadonlyMap<DestinationType, DestinationTypeRules>,
  input: NewDestinationInput,
  now: Date,
): Promise<StoredDestination> {
  checkLength(input.name, MAX_NAME, 'name');
  const rules = destinationTypes.get(input.type as DestinationType);
  if (!rules) throw new Error(`unknown destination type ${input.type}; one of: ${[...destinationTypes.keys()].join(', ')}`);
  const errors: FieldError[] = rules.validate(input.config, '/config');
  for (const [key, value] of Object.entries(input.config)) {
    const secrets = key === HEADERS_KEY && typeof value === 'object' ? Object.values(value) : rules.secretKeys.has(key) && typeof value === 'string' ? [value] : [];
    if (secrets.some(looksMasked)) errors.push({ path: `/config/${key}`, message: 'looks like a masked value; give the full secret' });
  }
  const filterRules = input.filter_rules ? normalizeFilterRules(input.filter_rules, '/filter_rules', errors) : null;
  if (input.sampling_rate !== undefined && !(input.sampling_rate >= 0.0001 && input.sampling_rate <= 1)) {
    errors.push({ path: '/sampling_rate', message: 'must be from 0.0001 to 1' });
  }
  if (errors.length > 0) throw new FieldValidationError(errors);
  return store.destinations.create(
    {
      workspace_id: input.workspaceId,
      type: rules.type,
      name: input.name ?? null,
      config: input.config,
      ...(input.enabled !== undefined && { enabled: input.enabled }),
      ...(input.privacy_mode !== undefined && { privacy_mode: input.privacy_mode }),
      ...(input.sampling_rate !== undefined && { sampling_rate: input.sampling_rate }),
      ...(input.api_key_hashes !== undefined && { api_key_hashes: input.api_key_hashes }),
      filter_rules: filterRules,
    },
    now,
  );
}

const SLUG_PATTERN = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

export async function addPresetVersion(
  store: Store,
  input: { workspaceId: string; slug: string; config: PresetConfig; systemPrompt?: string | null; creatorId: string },
  now: Date,
) {
  if (!SLUG_PATTERN.test(input.slug)) throw new Error('slug must be URL-safe: lower-case letters and digits, separated by - or _');
  if (input.config.model !== undefined && typeof input.config.model !== 'string') throw new Error('config.model must be a string');
  checkLength(input.config.model, MAX_IDENTIFIER, 'config.model');
  checkLength(input.creatorId, MAX_IDENTIFIER, 'creator_id');
  checkLength(input.systemPrompt, MAX_SYSTEM_PROMPT, 'system_prompt');
  if (input.config.temperature !== undefined && typeof input.config.temperature !== 'number') throw new Error('config.temperature must be a number');
  return store.presets.addVersion(input.workspaceId, input.slug, { config: JSON.stringify(input.config), system_prompt: input.systemPrompt ?? null, creator_id: input.creatorId }, now);
}

export async function recordUsage(store: Store, input: { keyHash: string; amount: number; byok: boolean; at: Date }): Promise<void> {
  if (!(input.amount >= 0) || !Number.isFinite(input.amount)) throw new Error('amount must be a finite number >= 0');
  const key = await store.keys.findByHash(input.keyHash);
  if (!key) throw new Error(`no key with hash ${input.keyHash}`);
  await store.keys.recordUsage(key.id, input.at, input.byok ? { usage: 0, byok_usage: input.amount } : { usage: input.amount, byok_usage: 0 });
}
