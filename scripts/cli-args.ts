// Node's parseArgs for the project's scripts and benchmarks: a bad argument is one line, never a
// stack trace.
import { type ParseArgsConfig, parseArgs } from 'node:util';

/** The parsed arguments, or the one line that says what is wrong with them. */
export function parseArgsOrMessage<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> | string {
  try {
    return parseArgs(config);
  } catch (err) {
    // Node's message goes on with advice on positionals that does not apply to every command.
    return (err as Error).message.split('. To specify')[0] ?? 'bad arguments';
  }
}

/** The parsed arguments; on a bad one, its line on stderr and exit 2. */
export function parseArgsOrExit<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  const parsed = parseArgsOrMessage(config);
  if (typeof parsed === 'string') {
    console.error(parsed);
    process.exit(2);
  }
  return parsed;
}
