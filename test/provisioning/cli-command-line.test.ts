// The CLI's arguments and what it says about them, in-process: the command to run with its
// options, or the help and the usage errors it prints, each with the usage of its command alone.
import { describe, expect, it } from 'vitest';
import { type CommandLine, readCommandLine, usageError } from '../../server/provisioning/command-line.js';
import { type CliCommand, cliCommands } from '../../server/provisioning/commands.js';
import { commandList, commandUsage, wholeUsage } from '../../server/provisioning/usage.js';
import { loadSpec, nodeAt } from '../../server/spec.js';

const spec = loadSpec();
const commands = cliCommands(spec);
const read = (argv: string[]) => readCommandLine(argv, commands);

function command(name: string): CliCommand {
  const found = commands.find((known) => known.name === name);
  if (!found) throw new Error(`no command ${name}`);
  return found;
}

/**
 * The command with a value for each of its required options (but the one left out): what runs unless
 * something else is wrong.
 */
function complete(name: string, leftOut?: string): string[] {
  return [
    name,
    ...command(name).options.flatMap((option) =>
      option.required && option.name !== leftOut ? [`--${option.name}`, ...(option.value ? ['v'] : [])] : [],
    ),
  ];
}

const optionsWithValues = commands.flatMap((known) =>
  known.options.filter((option) => option.value !== undefined).map((option) => [known.name, option.name] as const),
);
const requiredOptions = commands.flatMap((known) =>
  known.options.filter((option) => option.required).map((option) => [known.name, option.name] as const),
);
const flags = commands.flatMap((known) =>
  known.options.filter((option) => option.value === undefined).map((option) => [known.name, option.name] as const),
);

function usageErrorOf(name: string, message: string): CommandLine {
  return { print: `${message}\n\n${commandUsage(command(name))}`, to: 'stderr', exitCode: 2 };
}

describe('reading the arguments', () => {
  it.each(commands.filter((known) => known.name !== 'help').map((known) => [known.name]))(
    '%s with its required options runs, with their values',
    (name) => {
      const values = Object.fromEntries(
        command(name)
          .options.filter((option) => option.required)
          .map((option) => [option.name, option.value ? 'v' : true]),
      );
      expect(read(complete(name))).toEqual({ run: name, values });
    },
  );

  it('takes options before the command, flags as true and a value given with =', () => {
    expect(read(['--name=Acme', 'create-workspace'])).toEqual({ run: 'create-workspace', values: { name: 'Acme' } });
    expect(read(['seed', '--demo', '--json'])).toEqual({ run: 'seed', values: { demo: true, json: true } });
  });

  it.each(optionsWithValues)('%s --%s takes a negative number given apart as its value', (name, option) => {
    for (const negative of ['-5', '-0.5', '-.5', '-2.', '-1e3', '-1E-3', '-12.5', '-.25', '-1e10']) {
      const line = read([...complete(name), `--${option}`, negative]);
      expect(line).toMatchObject({ run: name, values: { [option]: negative } });
    }
  });

  it.each(optionsWithValues)('%s --%s takes any value written with =, even one that starts with -', (name, option) => {
    expect(read([...complete(name), `--${option}=-x`])).toMatchObject({ values: { [option]: '-x' } });
  });

  it('a value that starts with - and is no number is taken for a forgotten value', () => {
    expect(read(['create-workspace', '--name', '-x'])).toEqual(
      usageErrorOf(
        'create-workspace',
        '--name needs a value (a value that starts with -, such as -x, is written --name=-x)',
      ),
    );
    // Not even when it ends like a number.
    expect(read(['create-workspace', '--name', '-x-5'])).toEqual(
      usageErrorOf(
        'create-workspace',
        '--name needs a value (a value that starts with -, such as -x-5, is written --name=-x-5)',
      ),
    );
    expect(read(['create-key', '--workspace', 'w', '--name', 'n', '--limit', '--disabled'])).toEqual(
      usageErrorOf(
        'create-key',
        '--limit needs a value (a value that starts with -, such as --disabled, is written --limit=--disabled)',
      ),
    );
    expect(read(['create-key', '--workspace', 'w', '--name', 'n', '--limit', '-5x'])).toMatchObject({ exitCode: 2 });
  });
});

describe('usage errors: one line, then the usage of that command alone, on stderr with exit 2', () => {
  it.each([
    [['create-workspace', '--bogus'], 'create-workspace', 'unknown option --bogus'],
    [['create-workspace', '-z'], 'create-workspace', 'unknown option -z'],
    [['create-workspace', '--name', 'A', '--limit', '5'], 'create-workspace', 'create-workspace takes no --limit'],
    [['create-workspace', '--name'], 'create-workspace', '--name needs a value'],
    [['seed', '--demo=yes'], 'seed', '--demo takes no value'],
    [['create-workspace', '--name', 'my', 'workspace'], 'create-workspace', 'unexpected argument "workspace"'],
    [['migrate', 'now'], 'migrate', 'unexpected argument "now"'],
    [['help', 'seed', 'migrate'], 'help', 'unexpected argument "migrate"'],
    [['record-usage', '--byok', '-3'], 'record-usage', 'unknown option -3'],
  ])('%j: %s', (argv, name, message) => {
    expect(read(argv)).toEqual(usageErrorOf(name, message));
  });

  it.each(requiredOptions)(
    "%s without its required --%s: that line, then the command's usage from the table",
    (name, option) => {
      expect(read(complete(name, option))).toEqual(usageErrorOf(name, `--${option} is required`));
    },
  );

  it.each(
    requiredOptions.filter(([name, option]) => command(name).options.find((known) => known.name === option)?.value),
  )('%s with an empty --%s: it is missing all the same', (name, option) => {
    expect(read([...complete(name, option), `--${option}=`])).toEqual(usageErrorOf(name, `--${option} is required`));
  });

  it('the options are judged before what is missing, the first missing one said', () => {
    expect(read(['create-key', '--bogus'])).toEqual(usageErrorOf('create-key', 'unknown option --bogus'));
    expect(read(['create-key', '--name', 'Ops'])).toEqual(usageErrorOf('create-key', '--workspace is required'));
    expect(read(['add-preset-version', '--workspace', 'w', '--slug', 's'])).toEqual(
      usageErrorOf('add-preset-version', '--config is required'),
    );
  });

  it('the first thing wrong is the one said', () => {
    expect(read(['create-workspace', '--bogus', '--name'])).toEqual(
      usageErrorOf('create-workspace', 'unknown option --bogus'),
    );
  });

  it.each(commands.map((known) => [known.name]))("%s's usage is its own alone, not the whole help", (name) => {
    const lines = commandUsage(command(name)).split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Usage: npm run -s cli -- ${name}( |$)`));
    expect(lines.filter((line) => line.startsWith('Usage:'))).toHaveLength(1);
    // Its other lines say what it does and list its options; none starts another command's entry.
    expect(lines.slice(1).filter((line) => /^ {2}[a-z]/.test(line))).toEqual([]);
    expect(lines.join('\n')).not.toContain('Exit codes');
  });

  it('an unknown command: its line, then the list of commands', () => {
    expect(read(['create-keys', '--name', 'x'])).toEqual({
      print: `unknown command "create-keys"\n\n${commandList(commands)}`,
      to: 'stderr',
      exitCode: 2,
    });
    expect(read(['help', 'nope'])).toEqual({
      print: `unknown command "nope"\n\n${commandList(commands)}`,
      to: 'stderr',
      exitCode: 2,
    });
  });

  it('no command: the list of commands', () => {
    expect(read([])).toEqual({ print: commandList(commands), to: 'stderr', exitCode: 2 });
    expect(read(['--name', 'x'])).toEqual({ print: commandList(commands), to: 'stderr', exitCode: 2 });
  });

  it("an error a command finds in its input: its line and that command's usage, or the list", () => {
    expect(usageError('--name is required', command('create-workspace'), commands)).toBe(
      `--name is required\n\n${commandUsage(command('create-workspace'))}`,
    );
    expect(usageError('no such thing', undefined, commands)).toBe(`no such thing\n\n${commandList(commands)}`);
  });
});

describe('help, on stdout with exit 0', () => {
  it.each([[['help']], [['--help']], [['-h']]])('%j: the whole help', (argv) => {
    expect(read(argv)).toEqual({ print: wholeUsage(commands), to: 'stdout', exitCode: 0 });
  });

  it.each([
    [['help', 'create-key']],
    [['create-key', '--help']],
    [['create-key', '-h']],
    [['create-key', '--bogus', '-h']],
  ])("%j: that command's usage", (argv) => {
    expect(read(argv)).toEqual({ print: commandUsage(command('create-key')), to: 'stdout', exitCode: 0 });
  });

  it('the whole help lists every command with every option, the exit codes and the environment', () => {
    const help = wholeUsage(commands);
    expect(help).toMatch(/^Usage: npm run -s cli -- <command> \[options\] {7}\(npm run -s cli -- help <command>\)\n\n/);
    for (const known of commands) {
      expect(help).toMatch(new RegExp(`^  ${known.name}( |$)`, 'm'));
      for (const option of known.options) expect(help).toContain(`--${option.name}`);
    }
    expect(help).toContain('Exit codes: 0 done; 1 not found or refused');
    expect(help).toMatch(/Environment: DATABASE_URL .*SECRETS_KEY_PREVIOUS\.$/);
  });

  it('lays the whole help out in 100 columns: a long synopsis goes on indented, a short one has what it does beside it', () => {
    const lines = wholeUsage(commands).split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    expect(lines).toContain('  migrate                         Create or update the database schema.');
    const createKey = lines.findIndex((line) => line.startsWith('  create-key '));
    expect(lines[createKey]).toBe('  create-key --workspace ID --name N [--kind management|standard] [--limit X]');
    expect(lines[createKey + 1]).toBe(
      '             [--limit-reset daily|weekly|monthly] [--include-byok] [--expires-at ISO]',
    );
    expect(lines).toContain(
      '                                  SECRETS_KEY_PREVIOUS (comma-separated) are read, then resealed.',
    );
  });

  it("a command's usage: its required options, what it does, each option with what it is", () => {
    expect(commandUsage(command('create-workspace'))).toBe(
      "Usage: npm run -s cli -- create-workspace --name N\nCreate a workspace.\n\n  --name N   the workspace's name",
    );
    expect(commandUsage(command('migrate'))).toBe(
      'Usage: npm run -s cli -- migrate\nCreate or update the database schema.',
    );
    expect(commandUsage(command('help'))).toBe(
      "Usage: npm run -s cli -- help [command]\nPrint the whole help, or one command's usage.",
    );
    const seed = commandUsage(command('seed')).split('\n');
    expect(seed[0]).toBe('Usage: npm run -s cli -- seed --demo [options]');
    expect(seed).toContain('  --json   print the JSON on one line');
  });

  it("a command's usage is a few lines of at most 100 columns, each option's what-it-is in one column", () => {
    for (const known of commands) {
      const lines = commandUsage(known).split('\n');
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
      const optionLines = lines.filter((line) => line.startsWith('  --'));
      expect(optionLines).toHaveLength(known.options.length);
      const columns = new Set(optionLines.map((line) => line.search(/ {3}\S/)));
      expect(columns.size).toBeLessThanOrEqual(1);
      expect(lines.length).toBeLessThanOrEqual(known.options.length * 2 + 3);
    }
  });

  it("the values the help offers are the spec's own enums", () => {
    const values = (pointer: string) => (nodeAt(spec, pointer) as unknown[]).filter((value) => value !== null);
    const option = (name: string, key: string) => command(name).options.find((known) => known.name === key);
    expect(option('create-key', 'kind')?.value).toBe(values('#/components/schemas/KeyKind/enum').join('|'));
    expect(option('create-key', 'limit-reset')?.value).toBe(
      values('#/components/schemas/ApiKey/properties/limit_reset/enum').join('|'),
    );
    expect(option('create-destination', 'type')?.about).toBe(
      `one of ${values('#/components/schemas/DestinationType/enum').join(', ')}`,
    );
  });

  it('every flag is true when given', () => {
    for (const [name, flag] of flags) {
      expect(read([...complete(name), `--${flag}`])).toMatchObject({ values: { [flag]: true } });
    }
  });
});
