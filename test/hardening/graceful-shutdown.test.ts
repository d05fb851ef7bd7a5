// Stopping on a signal, in this process: what SIGTERM and SIGINT do and log, the delay before the
// listener closes, a second signal, the grace period for in-flight requests, and the exit code;
// first on a recording stand-in for the HTTP server with a fake clock, then on a real one.
import { connect } from 'node:net';
import express from 'express';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type HttpServer, listen } from '../../server/http/http-server.js';
import { gracefulShutdown, type ShutdownOptions } from '../../server/shutdown.js';

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

const DELAY_MS = 5000;
const GRACE_MS = 10_000;

/** A shutdown over a stand-in HTTP server that records what it is asked, and whose drain the test ends. */
function recordedShutdown(options: Partial<Pick<ShutdownOptions, 'delayMs'>> = {}) {
  const calls: string[] = [];
  const logs: LogLine[] = [];
  const exits: number[] = [];
  let endDrain = () => {};
  const drained = new Promise<void>((resolve) => {
    endDrain = resolve;
  });
  const http = {
    closeKeepAlive: () => calls.push('closeKeepAlive'),
    drain: () => {
      calls.push('drain');
      return drained;
    },
  } as unknown as HttpServer;
  const shutdown = gracefulShutdown({
    http,
    logger: pino({ base: undefined, timestamp: false }, { write: (line: string) => logs.push(JSON.parse(line)) }),
    delayMs: options.delayMs ?? DELAY_MS,
    graceMs: GRACE_MS,
    closeResources: async () => {
      calls.push('closeResources');
    },
    exit: (code) => exits.push(code),
  });
  return { shutdown, calls, logs, exits, endDrain };
}

const info = (msg: string, fields: Record<string, unknown> = {}): LogLine => ({ level: 30, msg, ...fields });
const LISTENER_CLOSED = info('shutting down: listener closed, finishing in-flight requests');

afterEach(() => {
  vi.useRealTimers();
});

describe('graceful shutdown', () => {
  it('on SIGTERM, stops keep-alive at once, drains after the delay, closes the resources and exits 0', async () => {
    vi.useFakeTimers();
    const { shutdown, calls, logs, exits, endDrain } = recordedShutdown();
    expect(shutdown.started).toBe(false);
    shutdown.signal('SIGTERM');
    expect(shutdown.started).toBe(true);
    expect(calls).toEqual(['closeKeepAlive']);
    expect(logs).toEqual([
      info('shutting down: not ready, serving until the delay ends', { signal: 'SIGTERM', delayMs: DELAY_MS }),
    ]);
    await vi.advanceTimersByTimeAsync(DELAY_MS - 1);
    expect(calls).toEqual(['closeKeepAlive']);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual(['closeKeepAlive', 'drain']);
    expect(logs.slice(1)).toEqual([LISTENER_CLOSED]);
    expect(exits).toEqual([]);
    endDrain();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['closeKeepAlive', 'drain', 'closeResources']);
    expect(logs.slice(2)).toEqual([info('stopped')]);
    expect(exits).toEqual([0]);
  });

  it('on SIGINT, skips the delay and drains at once', () => {
    vi.useFakeTimers();
    const { shutdown, calls, logs } = recordedShutdown();
    shutdown.signal('SIGINT');
    expect(shutdown.started).toBe(true);
    expect(calls).toEqual(['closeKeepAlive', 'drain']);
    expect(logs).toEqual([info('shutting down', { signal: 'SIGINT' }), LISTENER_CLOSED]);
  });

  it('on SIGTERM with no delay configured, drains at once', () => {
    vi.useFakeTimers();
    const { shutdown, calls, logs } = recordedShutdown({ delayMs: 0 });
    shutdown.signal('SIGTERM');
    expect(calls).toEqual(['closeKeepAlive', 'drain']);
    expect(logs).toEqual([info('shutting down', { signal: 'SIGTERM' }), LISTENER_CLOSED]);
  });

  it('ends the delay on a second signal, and drains once only', async () => {
    vi.useFakeTimers();
    const { shutdown, calls, logs } = recordedShutdown();
    shutdown.signal('SIGTERM');
    await vi.advanceTimersByTimeAsync(1000);
    shutdown.signal('SIGTERM');
    expect(calls).toEqual(['closeKeepAlive', 'drain']);
    expect(logs.slice(1)).toEqual([
      info('shutting down: second signal, not waiting any longer', { signal: 'SIGTERM' }),
      LISTENER_CLOSED,
    ]);
    await vi.advanceTimersByTimeAsync(DELAY_MS);
    expect(calls).toEqual(['closeKeepAlive', 'drain']);
    expect(logs).toHaveLength(3);
  });

  it('ignores any signal once it is draining', async () => {
    vi.useFakeTimers();
    const { shutdown, calls, logs } = recordedShutdown();
    shutdown.signal('SIGINT');
    shutdown.signal('SIGINT');
    shutdown.signal('SIGTERM');
    await vi.advanceTimersByTimeAsync(DELAY_MS);
    expect(calls).toEqual(['closeKeepAlive', 'drain']);
    expect(logs).toEqual([info('shutting down', { signal: 'SIGINT' }), LISTENER_CLOSED]);
  });

  it('exits 1 with an error when in-flight requests are not finished within the grace period', async () => {
    vi.useFakeTimers();
    const { shutdown, calls, logs, exits } = recordedShutdown();
    shutdown.signal('SIGINT');
    await vi.advanceTimersByTimeAsync(GRACE_MS - 1);
    expect(exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(exits).toEqual([1]);
    expect(logs.slice(2)).toEqual([{ level: 50, msg: 'in-flight requests did not finish in time; exiting' }]);
    expect(calls).toEqual(['closeKeepAlive', 'drain']);
  });

  it('stops a real server: the port refuses connections, then the resources close and it exits 0', async () => {
    const app = express();
    const http = await listen(app, '127.0.0.1', 0, {
      headersTimeoutMs: 2000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5000,
    });
    const { port } = http.server.address() as { port: number };
    const events: string[] = [];
    const exited = new Promise<number>((resolve) => {
      gracefulShutdown({
        http,
        logger: pino({ level: 'silent' }),
        delayMs: DELAY_MS,
        graceMs: GRACE_MS,
        closeResources: async () => {
          events.push(`resources closed, listening: ${http.server.listening}`);
        },
        exit: resolve,
      }).signal('SIGINT');
    });
    expect(await exited).toBe(0);
    expect(events).toEqual(['resources closed, listening: false']);
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});
