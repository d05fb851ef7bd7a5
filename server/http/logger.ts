// The process's logger: one JSON object a line, what log collectors read; for a person watching a
// terminal in development, pino-pretty's coloured lines instead.
import type { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';

export type LogFormat = 'json' | 'pretty';

/** Pretty only for a terminal outside production: a pipe, a file or a production host always gets JSON. */
export function logFormat({ stdoutIsTTY, nodeEnv }: { stdoutIsTTY: boolean; nodeEnv: string }): LogFormat {
  return stdoutIsTTY && nodeEnv !== 'production' ? 'pretty' : 'json';
}

/** A logger writing to stdout, or to the given destination (tests). */
export async function createLogger(level: string, format: LogFormat, destination?: Writable): Promise<Logger> {
  if (format === 'json') return destination ? pino({ level }, destination) : pino({ level });
  // Loaded only here: production never loads it. In this thread and synchronous, as pino's own
  // stdout is: the shutdown's last lines are written before the process exits.
  const { default: pretty } = await import('pino-pretty');
  return pino(
    { level },
    pretty({
      sync: true,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      ...(destination && { destination }),
    }),
  );
}
