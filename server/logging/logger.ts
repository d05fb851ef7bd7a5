// The process's logger: one JSON object a line, what log collectors read; for a person watching a
// terminal in development, pino-pretty's coloured lines instead.
import type { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';

export type LogFormat = 'json' | 'pretty';

/**
 * The JSON lines to stdout wait in memory until this many bytes are there, or LOG_FLUSH_MS has
 * passed: one write for many lines. A SIGKILL or a power loss loses at most these (README,
 * "Logs"); an exit, a SIGTERM or an uncaught exception writes them first.
 */
export const LOG_BUFFER_BYTES = 4096;
export const LOG_FLUSH_MS = 250;
/**
 * While stdout's reader does not read, lines wait up to this many bytes; past it they are dropped,
 * so that a stalled log collector neither stalls the server nor grows its memory.
 */
const LOG_BACKLOG_LIMIT_BYTES = 8 * 1024 * 1024;

/** Pretty only for a terminal outside production: a pipe, a file or a production host always gets JSON. */
export function logFormat({ stdoutIsTTY, nodeEnv }: { stdoutIsTTY: boolean; nodeEnv: string }): LogFormat {
  return stdoutIsTTY && nodeEnv !== 'production' ? 'pretty' : 'json';
}

/** JSON lines to stdout through pino's asynchronous destination, which pino writes out at exit. */
function bufferedStdout(): pino.DestinationStream {
  const stdout = pino.destination({
    dest: 1,
    sync: false,
    minLength: LOG_BUFFER_BYTES,
    maxLength: LOG_BACKLOG_LIMIT_BYTES,
  });
  // Below LOG_BUFFER_BYTES nothing would be written on a quiet server: a line waits LOG_FLUSH_MS at most.
  setInterval(() => stdout.flush(), LOG_FLUSH_MS).unref();
  return stdout;
}

/** A logger writing to stdout, or to the given destination (tests). */
export async function createLogger(level: string, format: LogFormat, destination?: Writable): Promise<Logger> {
  if (format === 'json') return pino({ level }, destination ?? bufferedStdout());
  // Loaded only here: production never loads it. In this thread and synchronous: a person at a
  // terminal sees each line as it comes, and the shutdown's last lines before the process exits.
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

/** How long an exit waits for the log's writes to finish: a stdout nobody reads holds it no longer. */
const EXIT_FLUSH_TIMEOUT_MS = 5000;

/**
 * Calls `then` once every line logged so far has been written, in order, or after `timeoutMs` when
 * stdout is not read. A synchronous flush (pino's exit hook, and pino's `fatal`) writes what waits
 * in the buffer but not the write under way, which then lands after it, out of order, or is cut
 * short by the exit.
 */
function afterLogFlush(logger: Logger, then: () => void, timeoutMs = EXIT_FLUSH_TIMEOUT_MS): void {
  const timer = setTimeout(then, timeoutMs);
  logger.flush(() => {
    clearTimeout(timer);
    then();
  });
}

/** Ends the process once every line logged has been written (afterLogFlush). */
export function exitAfterLogFlush(logger: Logger, code: number): void {
  afterLogFlush(logger, () => process.exit(code));
}

/**
 * An exception nothing caught ends the process, as Node.js does by default, after one fatal log
 * line with its stack, last: the lines before it are written first, then it, then the process exits.
 */
export function exitOnUncaughtException(logger: Logger): void {
  process.on('uncaughtException', (err) => {
    afterLogFlush(logger, () => {
      // pino writes a fatal line synchronously: nothing is under way now to land after it.
      logger.fatal({ err }, 'uncaught exception: the process exits');
      process.exit(1);
    });
  });
}
