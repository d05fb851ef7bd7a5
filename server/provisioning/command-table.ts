// How a command of the CLI's table is declared (commands.ts): its options, what it says of them,
// and its run, typed by its own options.
import type { SecretBox } from '../domain/secrets.js';
import type { SealedKeys } from '../store/sealed-keys.js';
import type { Store } from '../store/store.js';
import type { OptionValues } from './command-line.js';
import type { ProgressLine } from './progress-line.js';
import type { Provisioning } from './provision.js';
import type { CommandOption, CommandText } from './usage.js';

/** What a command runs against. */
export interface CommandContext {
  store: Store;
  /** Checks every input against the contract the CLI loaded. */
  provisioning: Provisioning;
  now: Date;
  /** What the command warns of, one line each; the command goes on. */
  warn: (line: string) => void;
}

type Run = (values: OptionValues, context: CommandContext) => Promise<unknown>;

export interface CliCommand extends CommandText {
  /** Absent for help alone, which the command line answers (command-line.ts) before anything runs. */
  run?: Run;
  /** It reads or writes sealed secrets: the CLI checks first that its keys open those stored. */
  opensSecrets?: true;
}

type OptionValue<Option extends CommandOption> = Option extends { value: string } ? string : true;

/** A command's options as its run sees them: every required one given, the others perhaps. */
type ValuesOf<Options extends readonly CommandOption[]> = {
  [Option in Options[number] as Option extends { required: true } ? Option['name'] : never]: OptionValue<Option>;
} & {
  [Option in Options[number] as Option extends { required: true } ? never : Option['name']]?: OptionValue<Option>;
};

/**
 * One runnable command of the table, its run typed by its own options. The command line has
 * checked the values against those options (requiredOptionMissing, optionProblem) before it runs.
 */
export function command<const Options extends readonly CommandOption[]>(entry: {
  name: string;
  about: string;
  options: Options;
  opensSecrets?: true;
  run: (values: ValuesOf<Options>, context: CommandContext) => Promise<unknown>;
}): CliCommand {
  return { ...entry, run: entry.run as unknown as Run };
}

/** What backup, which opens no store, is given of the configuration. */
export interface BackupContext {
  databaseUrl: string;
  /** Where a database file's development key is kept; absent under SECRETS_KEY, which seals the secrets instead. */
  developmentKeyFile?: (databaseFile: string) => string;
  progress: ProgressLine;
}

/** What a command that opens no store is given: what backup is, and what copy-database needs besides. */
export interface StorelessContext extends BackupContext {
  /** SECRETS_KEY and SECRETS_KEY_PREVIOUS, or the development key of DATABASE_URL. */
  secrets: SecretBox;
  /** Throws, in one line, when stored secrets are sealed under a key that `secrets` lacks. */
  refuseKeys(sealed: SealedKeys): void;
  /** The key another database's secrets are sealed under, and what saves it as that database's development key. */
  targetSecrets(databaseUrl: string): { secrets: SecretBox; save?: () => void };
  connectTimeoutMs: number;
}

/** A command of the table that the CLI runs without opening the store, which would migrate the database or make it a key. */
export interface StorelessCommand<Context extends BackupContext = StorelessContext> extends CommandText {
  runWithoutStore(values: OptionValues, context: Context): Promise<unknown>;
}

export function runsWithoutStore(command: CommandText | undefined): command is StorelessCommand {
  return command !== undefined && 'runWithoutStore' in command;
}
