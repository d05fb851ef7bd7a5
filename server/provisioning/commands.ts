// The CLI's table of commands (server/cli.ts): every command with its options and what it says of
// them, and what it does with the options it was given, its result one JSON value. The help and
// the usages (usage.ts) and the reading of the arguments (command-line.ts) come from this table,
// and the CLI runs what it finds here, so that a command, or an option it requires, is said once.
// The enums it names are the spec's own. Input the CLI cannot use is a UsageError (exit 2, with the
// usage); a name that does not exist, a RefusedError (both in command-values.ts).
import type { KeyKind } from '../domain/api-keys.js';
import type { DataRegionsSent } from '../domain/data-regions.js';
import type { ConfigValues } from '../domain/destination-config-rules.js';
import { nodeAt, type OpenApiDocument } from '../spec.js';
import type { OptionValues } from './command-line.js';
import { type CliCommand, type CommandContext, command } from './command-table.js';
import { json, number, RefusedError, requireWorkspace, UsageError } from './command-values.js';
import { databaseCommands } from './database-commands.js';
import { seedDemo } from './demo.js';
import { type NewKeyInput, recordUsage } from './provision.js';

const hash = { name: 'hash', value: 'H', required: true, about: "the key's hash, as create-key printed it" } as const;

/** disable-key and enable-key: the same run, the other way round. */
function setDisabled(disabled: boolean) {
  return async (values: { hash: string }, { store, now }: CommandContext) => {
    if (!(await store.keys.setDisabled(values.hash, disabled, now)))
      throw new RefusedError(`no key with hash ${values.hash}`);
    return { hash: values.hash, disabled };
  };
}

export type { CliCommand, CommandContext };

export function cliCommands(spec: OpenApiDocument): CliCommand[] {
  const enumOf = (pointer: string) =>
    ((nodeAt(spec, pointer) ?? []) as unknown[]).filter((value) => value !== null).join('|');
  const workspace = {
    name: 'workspace',
    value: 'ID',
    required: true,
    about: 'the id of the workspace (see list-workspaces)',
  } as const;
  return [
    command({
      name: 'migrate',
      about: 'Create or update the database schema.',
      options: [],
      // Opening the store for this command migrates it (cli.ts).
      run: async (_values, { store }) => ({ migrated: true, applied: store.migrationsApplied }),
    }),
    command({
      name: 'create-workspace',
      about: 'Create a workspace.',
      options: [{ name: 'name', value: 'N', required: true, about: "the workspace's name" }],
      run: (values, { store, now }) => store.workspaces.create(values.name, now),
    }),
    command({
      name: 'list-workspaces',
      about: 'List the workspaces with their ids.',
      options: [],
      run: async (_values, { store }) => ({ workspaces: await store.workspaces.list() }),
    }),
    command({
      name: 'create-key',
      about: 'Create an API key in a workspace; the key is printed once, only its hash is stored.',
      options: [
        workspace,
        { name: 'name', value: 'N', required: true, about: "the key's name" },
        { name: 'kind', value: enumOf('#/components/schemas/KeyKind/enum'), about: 'standard unless said' },
        { name: 'limit', value: 'X', about: 'spending limit, a number >= 0; no limit unless said' },
        {
          name: 'limit-reset',
          value: enumOf('#/components/schemas/ApiKey/properties/limit_reset/enum'),
          about: 'when usage toward the limit starts again (UTC); never unless said',
        },
        { name: 'include-byok', about: 'count BYOK usage (own provider keys) toward the limit' },
        { name: 'expires-at', value: 'ISO', about: 'when the key stops authenticating, an ISO 8601 date-time' },
        { name: 'creator-user-id', value: 'U', about: 'the user who created the key' },
        {
          name: 'external-user',
          value: 'U',
          about: "the partner's end user the key's usage is attributed to; none unless said",
        },
        { name: 'disabled', about: 'create the key disabled' },
      ],
      run: async (values, { store, provisioning, now, warn }) => {
        // Kind and reset are checked against the spec's enums by createKey.
        const kind = (values.kind ?? 'standard') as KeyKind;
        const key = await provisioning.createKey(
          store,
          {
            workspaceId: values.workspace,
            name: values.name,
            kind,
            limit: values.limit === undefined ? null : number(values.limit, 'limit'),
            limitReset: (values['limit-reset'] ?? null) as NewKeyInput['limitReset'],
            includeByokInLimit: values['include-byok'] === true,
            disabled: values.disabled === true,
            expiresAt: values['expires-at'] ?? null,
            creatorUserId: values['creator-user-id'] ?? null,
            externalUser: values['external-user'] ?? null,
          },
          now,
        );
        // Created all the same: an expired key is what a test of expiry needs, and it cannot be changed later.
        if (key.expiresAt !== null && key.expiresAt <= now.toISOString())
          warn(`the key is already expired (it expired at ${key.expiresAt}); it is created, but cannot authenticate`);
        return { key: key.rawKey, hash: key.hash, kind, note: 'The key is shown once; only its hash is stored.' };
      },
    }),
    command({
      name: 'disable-key',
      about: 'Disable a key (it can no longer authenticate).',
      options: [hash],
      run: setDisabled(true),
    }),
    command({ name: 'enable-key', about: 'Enable a disabled key.', options: [hash], run: setDisabled(false) }),
    command({
      name: 'create-destination',
      about: 'Create an observability destination in a workspace.',
      // Its config is sealed beside the others: under a key that opens none of them, it would be sealed apart.
      opensSecrets: true,
      options: [
        workspace,
        {
          name: 'type',
          value: 'T',
          required: true,
          about: `one of ${enumOf('#/components/schemas/DestinationType/enum').replaceAll('|', ', ')}`,
        },
        { name: 'config', value: 'JSON', required: true, about: "the type's settings, a JSON object" },
        { name: 'name', value: 'N', about: "the destination's name" },
        { name: 'disabled', about: 'create the destination disabled' },
        { name: 'privacy-mode', about: 'forward only metadata, no request or response bodies' },
        { name: 'sampling-rate', value: 'X', about: 'fraction of traffic forwarded, above 0 and at most 1' },
        { name: 'api-key-hashes', value: 'H1,H2', about: "forward only these keys' traffic; every key's unless said" },
        { name: 'filter-rules', value: 'JSON', about: 'which requests are forwarded, a JSON object' },
        { name: 'broadcast-cost', about: "forward the generation's cost and billing metadata" },
        { name: 'broadcast-identity', about: "forward the generation's identity metadata" },
        { name: 'broadcast-request-context', about: "forward the generation's request-context metadata" },
        {
          name: 'regions',
          value: 'R1,R2',
          about: `the data regions it applies to, of ${enumOf('#/components/schemas/DataRegionListUpdate/items/enum').replaceAll('|', ', ')} (eu is europe); global unless said`,
        },
      ],
      run: async (values, { store, provisioning, now }) => {
        const destination = await provisioning.createDestination(
          store,
          {
            workspaceId: values.workspace,
            type: values.type,
            name: values.name ?? null,
            config: json<ConfigValues>(values.config, 'config'),
            enabled: values.disabled !== true,
            privacy_mode: values['privacy-mode'] === true,
            ...(values['sampling-rate'] !== undefined && {
              sampling_rate: number(values['sampling-rate'], 'sampling-rate'),
            }),
            ...(values['api-key-hashes'] !== undefined && {
              api_key_hashes: values['api-key-hashes'].split(',').filter(Boolean),
            }),
            ...(values['filter-rules'] !== undefined && {
              filter_rules: json(values['filter-rules'], 'filter-rules'),
            }),
            broadcast_generation_cost: values['broadcast-cost'] === true,
            broadcast_generation_identity: values['broadcast-identity'] === true,
            broadcast_generation_request_context: values['broadcast-request-context'] === true,
            ...(values.regions !== undefined && {
              // Checked against the contract's enum by createDestination.
              regions: values.regions.split(',') as DataRegionsSent,
            }),
          },
          now,
        );
        return {
          id: destination.id,
          type: destination.type,
          workspace_id: destination.workspace_id,
          regions: destination.state.regions,
        };
      },
    }),
    command({
      name: 'add-preset-version',
      about: "Add a version to a workspace's preset, creating the preset with its first version.",
      options: [
        workspace,
        { name: 'slug', value: 'S', required: true, about: 'lower-case letters and digits, in words joined by - or _' },
        { name: 'config', value: 'JSON', required: true, about: "the version's config, a JSON object" },
        { name: 'creator-id', value: 'U', required: true, about: 'the user who created the version' },
        { name: 'system-prompt', value: 'P', about: "the version's system prompt" },
      ],
      run: async (values, { store, provisioning, now }) => {
        const version = await provisioning.addPresetVersion(
          store,
          {
            workspaceId: values.workspace,
            slug: values.slug,
            config: json(values.config, 'config'),
            creatorId: values['creator-id'],
            systemPrompt: values['system-prompt'] ?? null,
          },
          now,
        );
        return { id: version.id, preset_id: version.preset_id, version: version.version };
      },
    }),
    command({
      name: 'record-usage',
      about: "Add usage to a key's totals.",
      options: [
        { name: 'key-hash', value: 'H', required: true, about: "the key's hash, as create-key printed it" },
        { name: 'amount', value: 'X', required: true, about: 'the usage, a number >= 0' },
        { name: 'byok', about: "usage through the caller's own provider key (BYOK)" },
        { name: 'at', value: 'ISO', about: 'when it happened, an ISO 8601 date-time; now unless said' },
      ],
      run: async (values, { store, now }) => {
        const at = values.at === undefined ? now : new Date(values.at);
        if (Number.isNaN(at.getTime())) throw new UsageError('--at must be an ISO 8601 timestamp');
        const amount = number(values.amount, 'amount');
        const keyHash = values['key-hash'];
        if (!(await store.keys.findByHash(keyHash))) throw new RefusedError(`no key with hash ${keyHash}`);
        await recordUsage(store, { keyHash, amount, byok: values.byok === true, at });
        return { recorded: amount, byok: values.byok === true, at: at.toISOString() };
      },
    }),
    command({
      name: 'seed',
      about: 'Create a demo workspace with keys, a destination and a preset.',
      opensSecrets: true,
      options: [
        { name: 'demo', required: true, about: 'the demo workspace (the only seed there is)' },
        { name: 'json', about: 'print the JSON on one line' },
      ],
      run: (_values, { store, provisioning, now }) => seedDemo(store, provisioning, now),
    }),
    ...databaseCommands(),
    { name: 'help', about: "Print the whole help, or one command's usage.", options: [], operand: '[command]' },
  ];
}

/** Runs the command of the table the command line named; its result is printed as JSON. */
export async function runCommand(
  commands: readonly CliCommand[],
  name: string,
  values: OptionValues,
  context: CommandContext,
): Promise<unknown> {
  const command = commands.find((known) => known.name === name);
  if (!command?.run) throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  // A command that names a workspace is refused in one line when there is none, before it writes.
  if (typeof values.workspace === 'string') await requireWorkspace(context.store, values.workspace);
  return command.run(values, context);
}
