// Creating keys, destinations, preset versions and usage records: what the CLI and the demo seed
// do. Every input is checked against the schemas of the contract the caller loaded (the ones the
// API answers with), so that nothing is provisioned that the API could not return; what a schema
// cannot say (masks, per-type config keys, URL-safe slugs) is checked here in code.

import type { components } from '../../generated/api.js';
import { generateApiKey, type KeyKind } from '../domain/api-keys.js';
import { type DataRegionsSent, storedRegions } from '../domain/data-regions.js';
import {
  type ConfigValues,
  type DestinationType,
  type DestinationTypeRules,
  loadDestinationTypeRules,
  secretsOf,
} from '../domain/destination-config-rules.js';
import { DESTINATION_SETTINGS, type DestinationState, type StoredDestination } from '../domain/destination-update.js';
import { type FieldError, FieldValidationError } from '../domain/field-errors.js';
import { looksMasked } from '../domain/masking.js';
import { MAX_CONFIG_JSON_LENGTH } from '../domain/preset-versions.js';
import { nonLinearPatternErrors } from '../regex/linearity.js';
import { createSpecAjv, type OpenApiDocument, specOperation, validatorAt } from '../spec.js';
import type { Store } from '../store/store.js';
import { schemaExplainer } from '../validation/schema-errors.js';

type ApiKey = components['schemas']['ApiKey'];
type PresetConfig = components['schemas']['PresetConfig'];

/** A value to provision, the schema of openapi.yaml it must satisfy, and how the input names it. */
type Check = [pointer: string, value: unknown, field: string];

type NewKey = { rawKey: string; hash: string; id: string; expiresAt: string | null };

/** Throws a FieldValidationError naming every value that breaks its schema; fills in the schemas' defaults. */
type CheckAgainstSpec = (checks: Check[], more?: FieldError[]) => void;

function checkerOf(spec: OpenApiDocument): CheckAgainstSpec {
  // Defaults are filled in (filter rules' `enabled` and `logic`), so that what is stored is explicit.
  const withDefaults = createSpecAjv(spec, { useDefaults: true });
  const explainer = schemaExplainer(spec, createSpecAjv(spec));
  return (checks, more = []) => {
    const errors = checks.flatMap(([pointer, value, field]) => {
      if (value === undefined || validatorAt(withDefaults, pointer)(value)) return [];
      return explainer.explain(pointer, value, `/${field}`);
    });
    errors.push(...more);
    if (errors.length > 0) throw new FieldValidationError(errors);
  };
}

const apiKeyField = (name: keyof ApiKey) => `#/components/schemas/ApiKey/properties/${name}`;
const destinationField = (name: string) => `#/components/schemas/ObservabilityDestination/properties/${name}`;
const presetVersionField = (name: string) => `#/components/schemas/PresetVersion/properties/${name}`;

export interface NewKeyInput {
  workspaceId: string;
  name: string;
  kind: KeyKind;
  limit?: number | null;
  limitReset?: ApiKey['limit_reset'];
  includeByokInLimit?: boolean;
  disabled?: boolean;
  expiresAt?: string | null;
  creatorUserId?: string | null;
  externalUser?: string | null;
}

async function createKey(check: CheckAgainstSpec, store: Store, input: NewKeyInput, now: Date): Promise<NewKey> {
  check([
    [apiKeyField('name'), input.name, 'name'],
    ['#/components/schemas/KeyKind', input.kind, 'kind'],
    [apiKeyField('limit'), input.limit, 'limit'],
    [apiKeyField('limit_reset'), input.limitReset, 'limit_reset'],
    [apiKeyField('expires_at'), input.expiresAt, 'expires_at'],
    [apiKeyField('creator_user_id'), input.creatorUserId, 'creator_user_id'],
    [apiKeyField('external_user'), input.externalUser, 'external_user'],
  ]);
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
      external_user: input.externalUser ?? null,
    },
    now,
  );
  return { rawKey: key.raw, hash: row.hash, id: row.id, expiresAt: row.expires_at };
}

export interface NewDestinationInput extends Partial<Omit<DestinationState, 'config' | 'regions'>> {
  workspaceId: string;
  type: string;
  config: ConfigValues;
  /** As an update sends them: `eu` is taken for `europe`. */
  regions?: DataRegionsSent;
}

function maskedSecrets(config: ConfigValues, rules: DestinationTypeRules): FieldError[] {
  return Object.entries(config).flatMap(([key, value]) => {
    const kind = secretsOf(key, value, rules.secretKeys);
    const secrets =
      kind === 'each header' && typeof value === 'object'
        ? Object.values(value)
        : kind === 'the value' && typeof value === 'string'
          ? [value]
          : [];
    return secrets.some(looksMasked)
      ? [{ path: `/config/${key}`, message: 'looks like a masked value; give the full secret' }]
      : [];
  });
}

async function createDestination(
  check: CheckAgainstSpec,
  store: Store,
  destinationTypes: ReadonlyMap<DestinationType, DestinationTypeRules>,
  input: NewDestinationInput,
  now: Date,
): Promise<StoredDestination> {
  const rules = destinationTypes.get(input.type as DestinationType);
  if (!rules)
    throw new FieldValidationError([
      { path: '/type', message: `must be one of: ${[...destinationTypes.keys()].join(', ')}` },
    ]);
  check(
    [
      ...DESTINATION_SETTINGS.map((field): Check => [destinationField(field), input[field], field]),
      ['#/components/schemas/ObservabilityDestinationUpdate/properties/regions', input.regions, 'regions'],
    ],
    [...rules.validate(input.config, '/config'), ...maskedSecrets(input.config, rules)],
  );
  const regions = input.regions && storedRegions(input.regions);
  // Once the rules have their schema's shape.
  const patternErrors = nonLinearPatternErrors(input.filter_rules, '/filter_rules');
  if (patternErrors.length > 0) throw new FieldValidationError(patternErrors);
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
      filter_rules: input.filter_rules ?? null,
      ...(input.broadcast_generation_cost !== undefined && {
        broadcast_generation_cost: input.broadcast_generation_cost,
      }),
      ...(input.broadcast_generation_identity !== undefined && {
        broadcast_generation_identity: input.broadcast_generation_identity,
      }),
      ...(input.broadcast_generation_request_context !== undefined && {
        broadcast_generation_request_context: input.broadcast_generation_request_context,
      }),
      ...(regions !== undefined && { regions }),
    },
    now,
  );
}

// Slugs are written in URLs: lower-case words of letters and digits, joined by - or _.
const SLUG_PATTERN = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

function slugSchemaPointer(spec: OpenApiDocument): string {
  const slug = specOperation(spec, 'listPresetVersions').parameters.find((p) => p.in === 'path' && p.name === 'slug');
  if (!slug) throw new Error('openapi.yaml has no slug parameter on listPresetVersions');
  return `${slug.pointer}/schema`;
}

async function addPresetVersion(
  check: CheckAgainstSpec,
  spec: OpenApiDocument,
  store: Store,
  input: NewPresetVersionInput,
  now: Date,
) {
  check(
    [
      [slugSchemaPointer(spec), input.slug, 'slug'],
      [presetVersionField('config'), input.config, 'config'],
      [presetVersionField('creator_id'), input.creatorId, 'creator_id'],
      [presetVersionField('system_prompt'), input.systemPrompt, 'system_prompt'],
    ],
    [
      ...(SLUG_PATTERN.test(input.slug)
        ? []
        : [{ path: '/slug', message: 'must be URL-safe: lower-case letters and digits, in words joined by - or _' }]),
      ...((JSON.stringify(input.config) ?? '').length > MAX_CONFIG_JSON_LENGTH
        ? [{ path: '/config', message: `must be at most ${MAX_CONFIG_JSON_LENGTH} characters written as JSON` }]
        : []),
    ],
  );
  return store.presets.addVersion(
    input.workspaceId,
    input.slug,
    { config: input.config, system_prompt: input.systemPrompt ?? null, creator_id: input.creatorId },
    now,
  );
}

export interface NewPresetVersionInput {
  workspaceId: string;
  slug: string;
  config: PresetConfig;
  systemPrompt?: string | null;
  creatorId: string;
}

/**
 * Provisioning against one loaded contract: the spec the caller loaded (and its destination types)
 * is the one every input is checked against, so a process reads openapi.yaml once.
 */
export class Provisioning {
  private checker: CheckAgainstSpec | undefined;
  private types: ReadonlyMap<DestinationType, DestinationTypeRules> | undefined;

  /** Built when first used: a CLI command that provisions nothing compiles no validator. */
  constructor(
    private readonly spec: OpenApiDocument,
    destinationTypes?: ReadonlyMap<DestinationType, DestinationTypeRules>,
  ) {
    this.types = destinationTypes;
  }

  private get check(): CheckAgainstSpec {
    this.checker ??= checkerOf(this.spec);
    return this.checker;
  }

  private get destinationTypes(): ReadonlyMap<DestinationType, DestinationTypeRules> {
    this.types ??= loadDestinationTypeRules(this.spec);
    return this.types;
  }

  async createKey(store: Store, input: NewKeyInput, now: Date): Promise<NewKey> {
    return createKey(this.check, store, input, now);
  }

  async createDestination(store: Store, input: NewDestinationInput, now: Date): Promise<StoredDestination> {
    return createDestination(this.check, store, this.destinationTypes, input, now);
  }

  async addPresetVersion(store: Store, input: NewPresetVersionInput, now: Date) {
    return addPresetVersion(this.check, this.spec, store, input, now);
  }
}

export async function recordUsage(
  store: Store,
  input: { keyHash: string; amount: number; byok: boolean; at: Date },
): Promise<void> {
  // Usage only adds up: the spec's usage totals are never below 0.
  if (!(input.amount >= 0) || !Number.isFinite(input.amount))
    throw new FieldValidationError([{ path: '/amount', message: 'must be a finite number >= 0' }]);
  const key = await store.keys.findByHash(input.keyHash);
  if (!key) throw new Error(`no key with hash ${input.keyHash}`);
  await store.keys.recordUsage(
    key.id,
    input.at,
    input.byok ? { usage: 0, byok_usage: input.amount } : { usage: input.amount, byok_usage: 0 },
  );
}
