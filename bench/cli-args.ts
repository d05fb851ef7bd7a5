// The benchmarks' command lines: a flag they do not know is one line and exit 2, not a stack trace.
import { type ParseArgsConfig, parseArgs } from 'node:util';

export function parseArgsOrExit<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    console.error((err as Error).message.split('. To specify')[0]);
    process.exit(2);
  }
}
