// What the CLI (server/cli.ts) says about its commands: one table of every command and its options,
// from which come the whole help, one command's usage and the list of commands. The enums it names
// are the spec's own.
import { nodeAt, type OpenApiDocument } from '../spec.js';

export interface CommandOption {
  name: string;
  /** What the option's value is, in the synopsis; a flag has none. */
  value?: string;
  required?: true;
  about: string;
}

export interface CliCommand {
  name: string;
  about: string;
  options: CommandOption[];
  /** The words it takes besides options (`help [command]`); no other command takes any. */
  operand?: string;
}

const INVOCATION = 'npm run -s cli --';
const WIDTH = 100;
/** Where a command's description starts in the list of commands. */
const ABOUT_COLUMN = 34;
/** Where a synopsis that does not fit on one line goes on. */
const SYNOPSIS_INDENT = 13;

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
    { name: 'migrate', about: 'Create or update the database schema.', options: [] },
    {
      name: 'create-workspace',
      about: 'Create a workspace.',
      options: [{ name: 'name', value: 'N', required: true, about: "the workspace's name" }],
    },
    { name: 'list-workspaces', about: 'List the workspaces with their ids.', options: [] },
    {
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
        { name: 'disabled', about: 'create the key disabled' },
      ],
    },
    {
      name: 'disable-key',
      about: 'Disable a key (it can no longer authenticate).',
      options: [{ name: 'hash', value: 'H', required: true, about: "the key's hash, as create-key printed it" }],
    },
    {
      name: 'enable-key',
      about: 'Enable a disabled key.',
      options: [{ name: 'hash', value: 'H', required: true, about: "the key's hash, as create-key printed it" }],
    },
    {
      name: 'create-destination',
      about: 'Create an observability destination in a workspace.',
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
      ],
    },
    {
      name: 'add-preset-version',
      about: "Add a version to a workspace's preset, creating the preset with its first version.",
      options: [
        workspace,
        { name: 'slug', value: 'S', required: true, about: 'lower-case letters and digits, in words joined by - or _' },
        { name: 'config', value: 'JSON', required: true, about: "the version's config, a JSON object" },
        { name: 'creator-id', value: 'U', required: true, about: 'the user who created the version' },
        { name: 'system-prompt', value: 'P', about: "the version's system prompt" },
      ],
    },
    {
      name: 'record-usage',
      about: "Add usage to a key's totals.",
      options: [
        { name: 'key-hash', value: 'H', required: true, about: "the key's hash, as create-key printed it" },
        { name: 'amount', value: 'X', required: true, about: 'the usage, a number >= 0' },
        { name: 'byok', about: "usage through the caller's own provider key (BYOK)" },
        { name: 'at', value: 'ISO', about: 'when it happened, an ISO 8601 date-time; now unless said' },
      ],
    },
    {
      name: 'seed',
      about: 'Create a demo workspace with keys, a destination and a preset.',
      options: [
        { name: 'demo', required: true, about: 'the demo workspace (the only seed there is)' },
        { name: 'json', about: 'print the JSON on one line' },
      ],
    },
    {
      name: 'rotate-secrets-key',
      about:
        'Re-encrypt every secret under SECRETS_KEY; values sealed under SECRETS_KEY_PREVIOUS (comma-separated) are read, then resealed.',
      options: [],
    },
    { name: 'help', about: "Print the whole help, or one command's usage.", options: [], operand: '[command]' },
  ];
}

/** Words laid out in lines of at most WIDTH characters, each line after the first indented. */
function wrap(words: string[], first: string, indent: number): string[] {
  const lines = [first];
  for (const word of words) {
    const last = lines.length - 1;
    const line = lines[last] ?? '';
    if (line === '' || line.endsWith(' ')) lines[last] = `${line}${word}`;
    else if (line.length + 1 + word.length <= WIDTH) lines[last] = `${line} ${word}`;
    else lines.push(`${' '.repeat(indent)}${word}`);
  }
  return lines;
}

const optionWords = (option: CommandOption) => (option.value ? `--${option.name} ${option.value}` : `--${option.name}`);

/** The command with every option, required ones first, optional ones in brackets. */
function synopsis(command: CliCommand): string[] {
  return [
    command.name,
    ...command.options.filter((option) => option.required).map(optionWords),
    ...command.options.filter((option) => !option.required).map((option) => `[${optionWords(option)}]`),
    ...(command.operand ? [command.operand] : []),
  ];
}

const HEADER = `Usage: ${INVOCATION} <command> [options]       (${INVOCATION} help <command>)`;

/** The commands, one line each with what it does: what an unknown or missing command is answered with. */
export function commandList(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((command) => command.name.length)) + 4;
  const lines = commands.map((command) =>
    wrap(command.about.split(' '), `  ${command.name.padEnd(width)}`, width + 2).join('\n'),
  );
  return `${HEADER}\n\nCommands:\n${lines.join('\n')}`;
}

/** The whole help: every command with all its options, the exit codes and the environment. */
export function wholeUsage(commands: readonly CliCommand[]): string {
  const entries = commands.map((command) => {
    const lines = wrap(synopsis(command), '  ', SYNOPSIS_INDENT);
    const [only] = lines;
    // A short synopsis has what the command does beside it; `help <command>` says it of the others.
    if (lines.length > 1 || only === undefined || only.length > ABOUT_COLUMN - 2) return lines.join('\n');
    return wrap(command.about.split(' '), only.padEnd(ABOUT_COLUMN), ABOUT_COLUMN).join('\n');
  });
  return `${HEADER}

Commands:
${entries.join('\n')}

Every command prints one JSON object on stdout. Exit codes: 0 done; 1 not found or refused (a
workspace or key that does not exist, input the contract refuses), said in one line on stderr;
2 a usage error (unknown command or option, a required option missing, a bad option value),
said in one line with the usage of the command.
-s keeps npm's own banner off stdout, so that the JSON can be piped.

Environment: DATABASE_URL (default sqlite:./data/api.db), SECRETS_KEY, SECRETS_KEY_PREVIOUS.`;
}

/** One command's usage: its required options, what it does, then each option with what it is. */
export function commandUsage(command: CliCommand): string {
  const required = command.options.filter((option) => option.required).map(optionWords);
  const head = [
    command.name,
    ...required,
    ...(command.options.length > required.length ? ['[options]'] : []),
    ...(command.operand ? [command.operand] : []),
  ];
  const labels = command.options.map((option) => `  ${optionWords(option)}`);
  const width = Math.max(0, ...labels.map((label) => label.length)) + 3;
  const options = command.options.map((option, index) =>
    wrap(option.about.split(' '), (labels[index] ?? '').padEnd(width), width).join('\n'),
  );
  return [
    wrap(head, `Usage: ${INVOCATION}`, SYNOPSIS_INDENT).join('\n'),
    ...wrap(command.about.split(' '), '', 0),
    ...(options.length > 0 ? ['', ...options] : []),
  ].join('\n');
}
