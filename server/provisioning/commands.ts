// The provisioning commands of the CLI (server/cli.ts), each run against the store: what one
// command does with the options it was given, and its result as one JSON value. Input the CLI
// cannot use is a UsageError (exit 2, with the usage); a name that does not exist, a RefusedError.
import type { KeyKind } from '../domain/api-keys.js';
import { type ConfigValues, loadDestinationTypeRules } from '../domain/destination-config-rules.js';
import { systemClock } from '../domain/time.js';
import type { OpenApiDocument } from '../spec.js';
import type { Store } from '../store/index.js';
import { seedDemo } from './demo.js';
import { addPresetVersion, createDestination, createKey, type NewKeyInput, recordUsage } from './index.js';

/** Something the command names does not exist, or was refused: exit 1, one sentence, no usage. */
export class RefusedError extends Error {}

export class UsageError extends Error {}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function optionalNumber(values: Record<string, unknown>, name: string): number | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  const number = Number(value);
  if (typeof value !== 'string' || value.trim() === '' || !Number.isFinite(number))
    throw new UsageError(`--${name} must be a number`);
  return number;
}

function json<T>(values: Record<string, unknown>, name: string): T {
  try {
    return JSON.parse(required(values, name)) as T;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`--${name} must be valid JSON`);
  }
}

async function requireWorkspace(store: Store, id: string): Promise<void> {
  if (!(await store.workspaces.exists(id)))
    throw new RefusedError(`no workspace ${id} (npm run -s cli -- list-workspaces lists them)`);
}

/** Runs one command; its result is printed as JSON, what it warns of said through `warn`. */
export async function runCommand(
  command: string,
  values: Record<string, unknown>,
  store: Store,
  spec: OpenApiDocument,
  warn: (line: string) => void,
): Promise<unknown> {
  const now = systemClock();
  switch (command) {
    case 'migrate':
      return { migrated: true };
    case 'create-workspace':
      return store.workspaces.create(required(values, 'name'), now);
    case 'list-workspaces':
      return { workspaces: await store.workspaces.list() };
    case 'create-key': {
      await requireWorkspace(store, required(values, 'workspace'));
      // Kind and reset are checked against the spec's enums by createKey.
      const kind = (values.kind ?? 'standard') as KeyKind;
      const limitReset = (values['limit-reset'] ?? null) as NewKeyInput['limitReset'];
      const key = await createKey(
        store,
        {
          workspaceId: required(values, 'workspace'),
          name: required(values, 'name'),
          kind,
          limit: optionalNumber(values, 'limit') ?? null,
          limitReset,
          includeByokInLimit: values['include-byok'] === true,
          disabled: values.disabled === true,
          expiresAt: (values['expires-at'] as string | undefined) ?? null,
          creatorUserId: (values['creator-user-id'] as string | undefined) ?? null,
        },
        now,
      );
      // Created all the same: an expired key is what a test of expiry needs, and it cannot be changed later.
      if (key.expiresAt !== null && key.expiresAt <= now.toISOString())
        warn(`the key is already expired (it expired at ${key.expiresAt}); it is created, but cannot authenticate`);
      return { key: key.rawKey, hash: key.hash, kind, note: 'The key is shown once; only its hash is stored.' };
    }
    case 'disable-key':
    case 'enable-key': {
      const hash = required(values, 'hash');
      if (!(await store.keys.setDisabled(hash, command === 'disable-key', now)))
        throw new RefusedError(`no key with hash ${hash}`);
      return { hash, disabled: command === 'disable-key' };
    }
    case 'create-destination': {
      await requireWorkspace(store, required(values, 'workspace'));
      const destination = await createDestination(
        store,
        loadDestinationTypeRules(spec),
        {
          workspaceId: required(values, 'workspace'),
          type: required(values, 'type'),
          name: (values.name as string | undefined) ?? null,
          config: json<ConfigValues>(values, 'config'),
          enabled: values.disabled !== true,
          privacy_mode: values['privacy-mode'] === true,
          ...(values['sampling-rate'] !== undefined && { sampling_rate: optionalNumber(values, 'sampling-rate') }),
          ...(values['api-key-hashes'] !== undefined && {
            api_key_hashes: String(values['api-key-hashes']).split(',').filter(Boolean),
          }),
          ...(values['filter-rules'] !== undefined && { filter_rules: json(values, 'filter-rules') }),
        },
        now,
      );
      return { id: destination.id, type: destination.type, workspace_id: destination.workspace_id };
    }
    case 'add-preset-version': {
      await requireWorkspace(store, required(values, 'workspace'));
      const version = await addPresetVersion(
        store,
        {
          workspaceId: required(values, 'workspace'),
          slug: required(values, 'slug'),
          config: json(values, 'config'),
          creatorId: required(values, 'creator-id'),
          systemPrompt: (values['system-prompt'] as string | undefined) ?? null,
        },
        now,
      );
      return { id: version.id, preset_id: version.preset_id, version: version.version };
    }
    case 'record-usage': {
      const at = values.at === undefined ? now : new Date(String(values.at));
      if (Number.isNaN(at.getTime())) throw new UsageError('--at must be an ISO 8601 timestamp');
      const amount = optionalNumber(values, 'amount');
      if (amount === undefined) throw new UsageError('--amount is required');
      const keyHash = required(values, 'key-hash');
      if (!(await store.keys.findByHash(keyHash))) throw new RefusedError(`no key with hash ${keyHash}`);
      await recordUsage(store, { keyHash, amount, byok: values.byok === true, at });
      return { recorded: amount, byok: values.byok === true, at: at.toISOString() };
    }
    case 'rotate-secrets-key':
      return store.destinations.resealAll();
    case 'seed': {
      if (values.demo !== true) throw new UsageError('--demo is required');
      return seedDemo(store, loadDestinationTypeRules(spec), now);
    }
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  }
}
