// The log format: pino-pretty's lines for a person at a terminal in development; JSON for
// everything else (a pipe, a file, a log collector, the tests, any production host).
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, exitAfterLogFlush, exitOnUncaughtException, logFormat } from '../../server/logging/logger.js';

/** A destination that keeps what is written to it. */
function recording(): { destination: Writable; output: () => string } {
  let output = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      output += chunk.toString('utf8');
      callback();
    },
  });
  return { destination, output: () => output };
}

/** What a logger of the format, at level warn, writes for one line with a field. */
async function written(format: 'json' | 'pretty'): Promise<string> {
  const { destination, output } = recording();
  const logger = await createLogger('warn', format, destination);
  logger.info('below the level');
  logger.warn({ req: { path: '/healthz' } }, 'GET 200');
  await vi.waitFor(() => expect(output()).toContain('\n'));
  return output();
}

describe('the log format', () => {
  it.each([
    [true, 'development', 'pretty'],
    [true, 'test', 'pretty'],
    [true, 'production', 'json'],
    [false, 'development', 'json'],
    [false, 'test', 'json'],
    [false, 'production', 'json'],
  ] as const)('for stdout a terminal %s and NODE_ENV=%s is %s', (stdoutIsTTY, nodeEnv, format) => {
    expect(logFormat({ stdoutIsTTY, nodeEnv })).toBe(format);
  });
});

describe('the logger', () => {
  it('writes one JSON object a line in the JSON format, at its level', async () => {
    const lines = (await written('json')).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ level: 40, msg: 'GET 200', req: { path: '/healthz' } });
  });

  it('writes one readable line in the pretty format, at its level: the time, the level, the message, the fields', async () => {
    const output = await written('pretty');
    // Colours only where the terminal takes them.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences of colours are what is removed.
    const plain = output.replace(/\u001b\[\d+m/g, '');
    expect(plain).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] WARN: GET 200 \{"req":\{"path":"\/healthz"\}\}\n$/);
  });

  it('writes each pretty line before the call that logs it returns', async () => {
    const { destination, output } = recording();
    const logger = await createLogger('info', 'pretty', destination);
    logger.info('now');
    expect(output()).toMatch(/INFO: now\n$/);
  });
});

describe('the end of the process', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('exits with the code given once the lines logged are written', async () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const { destination } = recording();
    exitAfterLogFlush(await createLogger('info', 'json', destination), 3);
    await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(3));
  });

  it('ends on an exception nothing caught with one fatal line, after the lines logged before it, and exit code 1', async () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const listeners: ((err: Error) => void)[] = [];
    vi.spyOn(process, 'on').mockImplementation(((event: string, listener: (err: Error) => void) => {
      if (event === 'uncaughtException') listeners.push(listener);
      return process;
    }) as never);
    const { destination, output } = recording();
    const logger = await createLogger('info', 'json', destination);
    exitOnUncaughtException(logger);
    logger.info('before');
    expect(listeners).toHaveLength(1);
    listeners[0]?.(new Error('boom'));
    await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(1));
    const lines = output()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'before' }),
      expect.objectContaining({
        level: 60,
        msg: 'uncaught exception: the process exits',
        err: expect.objectContaining({ message: 'boom' }),
      }),
    ]);
  });
});
