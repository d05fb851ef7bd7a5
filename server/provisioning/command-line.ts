// The CLI's arguments read against its table of commands (commands.ts): the command to run with its
// options, or what to print instead (help, or a usage error with the usage of its command). Every
// usage error is found here, before the command runs, save a value its command cannot use.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { type CommandText, commandList, commandUsage, wholeUsage } from './usage.js';

export type OptionValues = Record<string, string | true>;

export type CommandLine =
  | { run: string; values: OptionValues }
  | { print: string; to: 'stdout' | 'stderr'; exitCode: 0 | 2 };

/** The option every command takes, a flag. */
const HELP = 'help';

// A value such as -5 or -0.5e3 after an option that takes one is that option's value, not an option.
const NEGATIVE_NUMBER = /^-(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i;

/** A usage error: its one line, then the usage of its command, or the commands when it has none. */
export function usageError(
  message: string,
  command: CommandText | undefined,
  commands: readonly CommandText[],
): string {
  return `${message}\n\n${command ? commandUsage(command) : commandList(commands)}`;
}

/** Node's reading of the arguments, lenient: what is wrong with them is said here, in the CLI's words. */
function tokensOf(argv: readonly string[], commands: readonly CommandText[]) {
  const options: NonNullable<ParseArgsConfig['options']> = { help: { type: 'boolean', short: 'h' } };
  for (const option of commands.flatMap((command) => command.options))
    options[option.name] = { type: option.value ? 'string' : 'boolean' };
  return parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true }).tokens;
}

/** What is wrong with one option of the command, if anything. */
function optionProblem(
  token: { name: string; rawName: string; value?: string | undefined; inlineValue?: boolean | undefined },
  command: CommandText,
  commands: readonly CommandText[],
): string | undefined {
  // Never --help: a command line that asks for help is answered before its options are judged.
  const option = command.options.find((known) => known.name === token.name);
  if (!option) {
    const elsewhere = commands.some((other) => other.options.some((known) => known.name === token.name));
    return elsewhere ? `${command.name} takes no ${token.rawName}` : `unknown option ${token.rawName}`;
  }
  if (option.value === undefined) return token.value === undefined ? undefined : `${token.rawName} takes no value`;
  if (token.value === undefined) return `${token.rawName} needs a value`;
  if (token.inlineValue || !token.value.startsWith('-') || NEGATIVE_NUMBER.test(token.value)) return undefined;
  // Most likely the value was left out and the next option taken for it; Node's strict reading refuses it too.
  return `${token.rawName} needs a value (a value that starts with -, such as ${token.value}, is written ${token.rawName}=${token.value})`;
}

export function readCommandLine(argv: readonly string[], commands: readonly CommandText[]): CommandLine {
  const tokens = tokensOf(argv, commands);
  const positionals = tokens.flatMap((token) => (token.kind === 'positional' ? [token.value] : []));
  const options = tokens.flatMap((token) => (token.kind === 'option' ? [token] : []));
  const helpAsked = options.some((token) => token.name === HELP);
  const [name, ...operands] = positionals;
  if (name === undefined) {
    return helpAsked
      ? { print: wholeUsage(commands), to: 'stdout', exitCode: 0 }
      : { print: commandList(commands), to: 'stderr', exitCode: 2 };
  }
  const command = commands.find((known) => known.name === name);
  if (!command)
    return {
      print: usageError(`unknown command ${JSON.stringify(name)}`, undefined, commands),
      to: 'stderr',
      exitCode: 2,
    };
  if (command.name === 'help' && operands.length <= 1) {
    const [topic] = operands;
    if (topic === undefined) return { print: wholeUsage(commands), to: 'stdout', exitCode: 0 };
    const about = commands.find((known) => known.name === topic);
    if (!about)
      return {
        print: usageError(`unknown command ${JSON.stringify(topic)}`, undefined, commands),
        to: 'stderr',
        exitCode: 2,
      };
    return { print: commandUsage(about), to: 'stdout', exitCode: 0 };
  }
  if (helpAsked) return { print: commandUsage(command), to: 'stdout', exitCode: 0 };
  const extra = command.operand ? operands.slice(1) : operands;
  const problem =
    options.map((token) => optionProblem(token, command, commands)).find((found) => found !== undefined) ??
    (extra[0] === undefined ? undefined : `unexpected argument ${JSON.stringify(extra[0])}`);
  if (problem) return { print: usageError(problem, command, commands), to: 'stderr', exitCode: 2 };
  const values: OptionValues = {};
  for (const token of options) values[token.name] = token.value ?? true;
  const missing = command.options.find((option) => option.required && (values[option.name] ?? '') === '');
  if (missing)
    return { print: usageError(`--${missing.name} is required`, command, commands), to: 'stderr', exitCode: 2 };
  return { run: command.name, values };
}
