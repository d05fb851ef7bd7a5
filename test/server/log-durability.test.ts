// The request log is buffered (server/logging/logger.ts): lines wait in memory and go out in one
// write. None may be lost when the process ends: on SIGTERM, on a normal exit, on process.exit
// and on an uncaught exception. A line on a quiet server comes out by the flush timer alone.
import { spawn } from 'node:child_process';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger, LOG_BUFFER_BYTES, LOG_FLUSH_MS } from '../../server/logging/logger.js';
import { projectRoot } from '../../server/project-root.js';
import { startServerProcess } from '../support/process.js';

const LINES = 5000;

function runFixture(ending: string): Promise<{ code: number | null; lines: Record<string, unknown>[] }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/server/fixtures/log-and-end.ts', ending, String(LINES)],
    {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({
        code,
        lines: stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      }),
    ),
  );
}

const logged = (lines: Record<string, unknown>[]) => lines.filter((line) => line.msg === 'logged').map((l) => l.line);
const ALL = Array.from({ length: LINES }, (_, i) => i + 1);

describe('the buffered log', () => {
  it('writes JSON lines to stdout asynchronously, in writes of LOG_BUFFER_BYTES or more', async () => {
    const logger = await createLogger('info', 'json');
    const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
    expect(stream).toMatchObject({ sync: false, minLength: LOG_BUFFER_BYTES });
  });

  it.each([
    ['return', 0],
    ['exit', 0],
  ])('loses no line when the process ends by %s', async (ending, exitCode) => {
    const { code, lines } = await runFixture(ending);
    expect(code).toBe(exitCode);
    expect(logged(lines)).toEqual(ALL);
  });

  it('loses no line on an uncaught exception, and logs the exception as fatal last', async () => {
    const { code, lines } = await runFixture('throw');
    expect(code).toBe(1);
    expect(logged(lines)).toEqual(ALL);
    const last = lines.at(-1) as { err?: { stack?: string } } | undefined;
    expect(last).toMatchObject({ level: 60, err: { message: 'nothing caught this' } });
    expect(last?.err?.stack).toContain('log-and-end.ts');
  });

  it('loses no request line on SIGTERM, and a line on a quiet server comes out with no other line after it', async () => {
    const server = await startServerProcess({ DATABASE_URL: 'sqlite::memory:' });
    let stdout = '';
    server.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    const requestLines = () => stdout.split('\n').filter((line) => line.includes('"req":{'));
    // One request alone: its line stays below LOG_BUFFER_BYTES, and nothing follows it but the flush timer.
    expect((await fetch(`${server.url}/api/v1/keys/${'0'.repeat(64)}`)).status).toBe(401);
    await expect.poll(requestLines, { interval: 10, timeout: LOG_FLUSH_MS * 20 }).toHaveLength(1);
    const requests = 300;
    for (let i = 0; i < requests; i++) await fetch(`${server.url}/api/v1/keys/${'0'.repeat(64)}`);
    expect(await server.stop()).toBe(0);
    expect(requestLines()).toHaveLength(requests + 1);
    expect(stdout).toContain('"msg":"stopped"');
  });
});
