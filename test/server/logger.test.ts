// The log format: pino-pretty's lines for a person at a terminal in development; JSON for
// everything else (a pipe, a file, a log collector, the tests, any production host).
import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createLogger, logFormat } from '../../server/http/logger.js';

/** What a logger of the format writes for one line with a field. */
async function written(format: 'json' | 'pretty'): Promise<string> {
  let output = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      output += chunk.toString('utf8');
      callback();
    },
  });
  const logger = await createLogger('info', format, destination);
  logger.debug('below the level');
  logger.info({ req: { path: '/healthz' } }, 'GET 200');
  await vi.waitFor(() => expect(output).toContain('\n'));
  return output;
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
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ level: 30, msg: 'GET 200', req: { path: '/healthz' } });
  });

  it('writes one readable line in the pretty format, at its level: the time, the level, the message, the fields', async () => {
    const output = await written('pretty');
    // Colours only where the terminal takes them.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences of colours are what is removed.
    const plain = output.replace(/\u001b\[\d+m/g, '');
    expect(plain).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: GET 200 \{"req":\{"path":"\/healthz"\}\}\n$/);
  });
});
