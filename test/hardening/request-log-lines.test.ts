import express from 'express';
import pino, { type Logger } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { requestLog } from '../../server/logging/request-log.js';
import { type Listening, listenOnLoopback } from '../support/listen.js';

interface LogLine {
  level: number;
  msg: string;
  req: { id: string; method: string; path: string };
  res: { status: number };
  responseTime: number;
}

/** A probe of this test's app, answering the status it is asked for. */
const PROBE = '/probe';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const lines: LogLine[] = [];
let logger: Logger;
let listening: Listening;
let baseUrl = '';
/** Run by the route /slow before it answers: how the test moves the clock while a request is served. */
let whileServing = () => {};

beforeAll(async () => {
  logger = pino({ base: undefined, timestamp: false }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const app = express();
  app.use(requestLog(logger, { probePaths: [PROBE] }));
  app.get('/status/:code', (req, res) => {
    res.status(Number(req.params.code)).json({});
  });
  app.get(PROBE, (req, res) => {
    res.status(Number(req.query.status)).json({});
  });
  app.get('/slow', (_req, res) => {
    whileServing();
    res.json({});
  });
  listening = await listenOnLoopback(app);
  baseUrl = listening.baseUrl;
});

afterAll(async () => {
  await listening.close();
});

afterEach(() => {
  vi.useRealTimers();
  whileServing = () => {};
});

/** One request, and the log line it left (the line is written once the answer is sent). */
async function logged(path: string, headers: Record<string, string> = {}): Promise<{ line: LogLine; id: string }> {
  const before = lines.length;
  const response = await fetch(`${baseUrl}${path}`, { headers });
  await response.arrayBuffer();
  await vi.waitFor(() => expect(lines.length).toBe(before + 1));
  return { line: lines[before] as LogLine, id: response.headers.get('x-request-id') ?? '' };
}

describe('request log lines', () => {
  it('logs a successful request at info, as its method and status, with the id it echoes', async () => {
    const { line, id } = await logged('/status/200', { 'x-request-id': 'req-1' });
    expect(id).toBe('req-1');
    expect(line).toEqual({
      level: 30,
      msg: 'GET 200',
      req: { id: 'req-1', method: 'GET', path: '/status/200' },
      res: { status: 200 },
      responseTime: expect.any(Number),
    });
  });

  it('logs a client error at info and a server error at warn, from 500 on', async () => {
    const levels: Record<number, [number, string]> = {};
    for (const status of [404, 499, 500, 503]) {
      const { line } = await logged(`/status/${status}`);
      levels[status] = [line.level, line.msg];
    }
    expect(levels).toEqual({
      404: [30, 'GET 404'],
      499: [30, 'GET 499'],
      500: [40, 'GET 500'],
      503: [40, 'GET 503'],
    });
  });

  it('logs the path without the query string', async () => {
    const { line } = await logged('/status/200?token=query-secret&limit=2');
    expect(line.req.path).toBe('/status/200');
    expect(JSON.stringify(lines)).not.toContain('query-secret');
  });

  it('keeps a client id of up to 128 letters, digits and . _ : -', async () => {
    const longest = `${'a'.repeat(120)}.B_9:z-0`;
    expect(longest).toHaveLength(128);
    const { line, id } = await logged('/status/200', { 'x-request-id': longest });
    expect([id, line.req.id]).toEqual([longest, longest]);
  });

  it('replaces a client id that is too long or holds any other character with a new UUID', async () => {
    for (const given of ['a'.repeat(129), 'tenant/42', 'two words', 'id;drop']) {
      const { line, id } = await logged('/status/200', { 'x-request-id': given });
      expect(id).toMatch(UUID);
      expect(line.req.id).toBe(id);
    }
  });

  it('gives each request without an id a new one', async () => {
    const first = await logged('/status/200');
    const second = await logged('/status/200');
    expect(first.id).toMatch(UUID);
    expect(second.id).toMatch(UUID);
    expect(second.id).not.toBe(first.id);
  });

  it('logs the time from the request to its answer, in whole milliseconds', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    vi.advanceTimersByTime(5000);
    whileServing = () => vi.advanceTimersByTime(42.4);
    const { line } = await logged('/slow');
    expect(line.responseTime).toBe(42);
  });

  describe('of a probe', () => {
    afterEach(() => {
      logger.level = 'info';
    });

    /** The lines a probe answering `status` left, once a request after it has left its own. */
    async function linesOfProbe(status: number): Promise<LogLine[]> {
      const before = lines.length;
      await (await fetch(`${baseUrl}${PROBE}?status=${status}`)).arrayBuffer();
      await logged('/status/200');
      return lines.slice(before).filter((line) => line.req.path === PROBE);
    }

    it('leaves a successful probe out at info: a balancer checks every instance several times a second', async () => {
      for (const status of [200, 204, 399]) expect(await linesOfProbe(status), String(status)).toEqual([]);
    });

    it('logs a successful probe at debug', async () => {
      logger.level = 'debug';
      expect(await linesOfProbe(200)).toEqual([expect.objectContaining({ level: 20, msg: 'GET 200' })]);
    });

    it('logs a failing probe as any request: a 503 at warn, a 400 and a 404 at info', async () => {
      expect(await linesOfProbe(503)).toEqual([
        expect.objectContaining({ level: 40, msg: 'GET 503', req: expect.objectContaining({ path: PROBE }) }),
      ]);
      expect(await linesOfProbe(400)).toEqual([expect.objectContaining({ level: 30, msg: 'GET 400' })]);
      expect(await linesOfProbe(404)).toEqual([expect.objectContaining({ level: 30, msg: 'GET 404' })]);
    });
  });
});
