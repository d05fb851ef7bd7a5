// Provisioning against DATABASE_URL: `npm run -s cli -- <command> [options]`. Every command prints
// one JSON object on stdout. Raw keys are printed once, at creation, and never stored.
// Exit codes: 0 done, 1 not found or refused (said in one sentence), 2 usage (with the usage).
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { FieldValidationError } from './domain/field-errors.js';
import { createSecretBox } from './domain/secrets.js';
import { describeFailure } from './failure.js';
import { RefusedError, runCommand, UsageError } from './provisioning/commands.js';
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
    config.developmentKey?.save();
  } catch (err) {
    console.error(describeFailure(err));
    return 1;
  }
  try {
    const result = await runCommand(command, parsed.values, store, spec);
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
