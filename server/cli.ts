// Provisioning against DATABASE_URL: `npm run -s cli -- <command> [options]`. Every command prints
// one JSON object on stdout. Raw keys are printed once, at creation, and never stored.
// Exit codes: 0 done, 1 not found or refused (said in one sentence), 2 usage (with the usage).
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import type { KeyKind } from './domain/api-keys.js';
import { type ConfigValues, loadDestinationTypeRules } from './domain/destination-config-rules.js';
import { FieldValidationError } from './domain/field-errors.js';
import { createSecretBox } from './domain/secrets.js';
import { systemClock } from './domain/time.js';
import { describeFailure } from './failure.js';
import { seedDemo } from './provisioning/demo.js';
import { addPresetVersion, createDestination, createKey, type NewKeyInput, recordUsage } from './provisioning/index.js';
import { loadSpec, nodeAt, type OpenApiDocument } from './spec.js';
import { openStore, type Store } from './store/index.js';

/** The help text; the enums it lists are the spec's own. */
function usage(spec: OpenApiDocument): string {
  const enumOf = (pointer: string) =>
    ((nodeAt(spec, pointer) ?? []) as unknown[]).filter((value) => value !== null).join('|');
  return `Usage: npm run -s cli -- <command> [options]       (npm run -s cli -- help <command>)

Commands:
  migrate                         Create or update the database schema.
  create-workspace --name N
  list-workspaces
  create-key --workspace ID --name N [--kind ${enumOf('#/components/schemas/KeyKind/enum')}] [--limit X]
             [--limit-reset ${enumOf('#/components/schemas/ApiKey/properties/limit_reset/enum')}] [--include-byok] [--expires-at ISO]
             [--creator-user-id U] [--disabled]
  disable-key --hash H            Disable a key (it can no longer authenticate).
  enable-key --hash H
  create-destination --workspace ID --type T --config JSON [--name N] [--disabled]
             [--privacy-mode] [--sampling-rate X] [--api-key-hashes H1,H2] [--filter-rules JSON]
  add-preset-version --workspace ID --slug S --config JSON --creator-id U [--system-prompt P]
  record-usage --key-hash H --amount X [--byok] [--at ISO]
  seed --demo [--json]            Create a demo workspace with keys, a destination and a preset.
  rotate-secrets-key              Re-encrypt every secret under SECRETS_KEY; values sealed under
                                  SECRETS_KEY_PREVIOUS (comma-separated) are read, then resealed.
  help [command]                  This text, or one command's.

Every command prints one JSON object on stdout. Exit codes: 0 done; 1 not found or refused (a
workspace or key that does not exist, input the contract refuses), said in one line on stderr;
2 a usage error (unknown command or option, a required option missing), with this text.
-s keeps npm's own banner off stdout, so that the JSON can be piped.

Environment: DATABASE_URL (default sqlite:./data/api.db), SECRETS_KEY, SECRETS_KEY_PREVIOUS.`;
}

/** One command's lines of the help text: its first line and the lines that continue it. */
function commandUsage(text: string, command: string): string | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`  ${command} `) || line === `  ${command}`);
  if (start < 0) return undefined;
  let end = start + 1;
  while (end < lines.length && /^ {13,}\S/.test(lines[end] ?? '')) end += 1;
  return `Usage: npm run -s cli -- ${lines.slice(start, end).join('\n').trim()}`;
}

const COMMANDS = [
  'migrate',
  'create-workspace',
  'list-workspaces',
  'create-key',
  'disable-key',
  'enable-key',
  'create-destination',
  'add-preset-version',
  'record-usage',
  'seed',
  'rotate-secrets-key',
  'help',
];

/** Something the command names does not exist, or was refused: exit 1, one sentence, no usage. */
class RefusedError extends Error {}

class UsageError extends Error {}

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

const OPTIONS = {
  name: { type: 'string' },
  workspace: { type: 'string' },
  kind: { type: 'string' },
  limit: { type: 'string' },
  'limit-reset': { type: 'string' },
  'include-byok': { type: 'boolean' },
  'expires-at': { type: 'string' },
  'creator-user-id': { type: 'string' },
  disabled: { type: 'boolean' },
  hash: { type: 'string' },
  type: { type: 'string' },
  config: { type: 'string' },
  'privacy-mode': { type: 'boolean' },
  'sampling-rate': { type: 'string' },
  'api-key-hashes': { type: 'string' },
  'filter-rules': { type: 'string' },
  slug: { type: 'string' },
  'creator-id': { type: 'string' },
  'system-prompt': { type: 'string' },
  'key-hash': { type: 'string' },
  amount: { type: 'string' },
  byok: { type: 'boolean' },
  at: { type: 'string' },
  demo: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

async function requireWorkspace(store: Store, id: string): Promise<void> {
  if (!(await store.workspaces.exists(id)))
    throw new RefusedError(`no workspace ${id} (npm run -s cli -- list-workspaces lists them)`);
}

async function run(
  command: string,
  values: Record<string, unknown>,
  store: Store,
  spec: OpenApiDocument,
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
      if (values.demo !== true) throw new UsageError('seed needs --demo');
      return seedDemo(store, loadDestinationTypeRules(spec), now);
    }
    default:
      throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  }
}

async function main(argv: string[]): Promise<number> {
  let spec: OpenApiDocument;
  try {
    spec = loadSpec();
  } catch (err) {
    console.error(describeFailure(err));
    return 1;
  }
  const USAGE = usage(spec);
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>
  >;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [command, topic] = parsed.positionals;
  if (command === undefined) {
    if (parsed.values.help) console.log(USAGE);
    else console.error(USAGE);
    return parsed.values.help ? 0 : 2;
  }
  if (!COMMANDS.includes(command)) {
    console.error(`unknown command ${JSON.stringify(command)}\n\n${USAGE}`);
    return 2;
  }
  if (command === 'help' || parsed.values.help) {
    const about = command === 'help' ? topic : command;
    const text = about === undefined ? USAGE : commandUsage(USAGE, about);
    if (text === undefined) {
      console.error(`unknown command ${JSON.stringify(about)}\n\n${USAGE}`);
      return 2;
    }
    console.log(text);
    return 0;
  }
  let store: Store;
  try {
    const config = loadConfig(process.env, (message) => console.error(message));
    store = await openStore(config.databaseUrl, createSecretBox(config.secretsKey, config.previousSecretsKeys));
  } catch (err) {
    console.error(describeFailure(err));
    return 1;
  }
  try {
    const result = await run(command, parsed.values, store, spec);
    console.log(JSON.stringify(result, null, parsed.values.json || command !== 'seed' ? undefined : 2));
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof RefusedError) {
      console.error(err.message);
      return 1;
    }
    if (err instanceof FieldValidationError) {
      console.error(`invalid input: ${err.message}`);
      return 1;
    }
    // Provisioning says what is wrong with the input in its own words.
    console.error(describeFailure(err, (message) => `error: ${message}`));
    return 1;
  } finally {
    await store.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
