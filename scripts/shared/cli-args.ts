// Node's parseArgs for the project's entry points: a bad argument is one line, never a stack trace.
import { type ParseArgsConfig, parseArgs } from 'node:util';

/**
 * The parsed arguments, or the one line that says what is wrong with them. `args` is required: an
 * entry parses the argv its `main` was given, never the process's own.
 */
export function parseArgsOrMessage<T extends ParseArgsConfig & { args: string[] }>(
  config: T,
): ReturnType<typeof parseArgs<T>> | string {
  try {
    return parseArgs(config);
  } catch (err) {
    // Node's message goes on with advice on positionals that does not apply to every command.
    return (err as Error).message.split('. To specify')[0] ?? 'bad arguments';
  }
}
