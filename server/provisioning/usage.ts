// What the CLI (server/cli.ts) says about its commands, from its table of commands (commands.ts):
// the whole help, one command's usage and the list of commands.

export interface CommandOption {
  name: string;
  /** What the option's value is, in the synopsis; a flag has none. */
  value?: string;
  required?: true;
  about: string;
}

/** What the usage says of one command of the table. */
export interface CommandText {
  name: string;
  about: string;
  options: readonly CommandOption[];
  /** The words it takes besides options (`help [command]`); no other command takes any. */
  operand?: string;
}

const INVOCATION = 'npm run -s cli --';
const WIDTH = 100;
/** Where a command's description starts in the list of commands. */
const ABOUT_COLUMN = 34;
/** Where a synopsis that does not fit on one line goes on. */
const SYNOPSIS_INDENT = 13;

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
function synopsis(command: CommandText): string[] {
  return [
    command.name,
    ...command.options.filter((option) => option.required).map(optionWords),
    ...command.options.filter((option) => !option.required).map((option) => `[${optionWords(option)}]`),
    ...(command.operand ? [command.operand] : []),
  ];
}

const HEADER = `Usage: ${INVOCATION} <command> [options]       (${INVOCATION} help <command>)`;

/** The commands, one line each with what it does: what an unknown or missing command is answered with. */
export function commandList(commands: readonly CommandText[]): string {
  const width = Math.max(...commands.map((command) => command.name.length)) + 4;
  const lines = commands.map((command) =>
    wrap(command.about.split(' '), `  ${command.name.padEnd(width)}`, width + 2).join('\n'),
  );
  return `${HEADER}\n\nCommands:\n${lines.join('\n')}`;
}

/** The whole help: every command with all its options, the exit codes and the environment. */
export function wholeUsage(commands: readonly CommandText[]): string {
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
export function commandUsage(command: CommandText): string {
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
