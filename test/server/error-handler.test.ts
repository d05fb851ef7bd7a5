import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FieldError, FieldValidationError } from '../../server/domain/field-errors.js';
import { envelopeBounds, errorHandler, HttpError } from '../../server/http/errors.js';
import { validatorFieldErrors } from '../../server/validation/validator.js';
import { type Listening, listenOnLoopback } from '../support/listen.js';
import { call, type LogEntry, spec } from '../support/server.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

describe('HttpError', () => {
  it('is named HttpError, so that logs and stack traces say what it is', () => {
    const error = new HttpError(404, 'Not found.');
    expect(error.name).toBe('HttpError');
    expect(String(error)).toBe('HttpError: Not found.');
  });
});

describe('the envelope bounds', () => {
  it('are read from ErrorResponse, FieldError and ErrorMetadata in openapi.yaml', () => {
    expect(envelopeBounds(spec)).toEqual({ message: 2048, fieldPath: 512, fieldMessage: 512, fieldErrors: 100 });
  });

  it('cannot be read from a spec that lacks one of them: the server refuses to start', () => {
    const broken = structuredClone(spec);
    const fieldError = broken.components.schemas.FieldError as { properties: { path: Record<string, unknown> } };
    delete fieldError.properties.path.maxLength;
    expect(() => envelopeBounds(broken)).toThrow(
      new Error('openapi.yaml has no number at #/components/schemas/FieldError/properties/path/maxLength'),
    );
  });
});

// A bare app: one route that throws what the test chooses, then the error handler. The validator's
// field errors are passed through unexplained, so that the handler's own mapping shows.
let thrown: unknown;
let handedOn: unknown[] = [];
const logs: LogEntry[] = [];
let listening: Listening;
let baseUrl: string;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logs.push(JSON.parse(line) as LogEntry);
      callback();
    },
  });
  const app = express();
  app.get('/fail', () => {
    throw thrown;
  });
  app.get('/fail-midway', async (_req, res) => {
    res.write('{"partial": ');
    await new Promise((resolve) => setImmediate(resolve));
    throw thrown;
  });
  app.use(
    errorHandler({
      logger: pino({ level: 'info' }, sink),
      bounds: envelopeBounds(spec),
    }),
  );
  app.use(((err, _req, res, _next) => {
    handedOn.push(err);
    res.end();
  }) satisfies express.ErrorRequestHandler);
  listening = await listenOnLoopback(app);
  baseUrl = listening.baseUrl;
});

afterAll(async () => {
  await listening.close();
});

afterEach(() => {
  logs.length = 0;
  handedOn = [];
});

async function answerTo(error: unknown, headers: Record<string, string> = {}) {
  thrown = error;
  const response = await fetch(`${baseUrl}/fail`, { headers });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  return { status: response.status, headers: response.headers, body: isJson ? JSON.parse(text) : text };
}

const envelope = (code: number, message: string, metadata: unknown = null) => ({ error: { code, message, metadata } });
const internalError = envelope(500, 'Internal server error.');
const unexpectedErrors = () => logs.filter((entry) => entry.msg === 'unexpected error');

describe('an HttpError', () => {
  it('is answered with its status, message, metadata and headers', async () => {
    const response = await answerTo(
      new HttpError(409, 'Taken.', { accepted_key_kinds: ['management'] }, { 'X-A': 'b' }),
    );
    expect(response.status).toBe(409);
    expect(response.headers.get('x-a')).toBe('b');
    expect(response.body).toEqual(envelope(409, 'Taken.', { accepted_key_kinds: ['management'] }));
  });

  it('keeps a message of exactly the bound, and clips a longer one to the bound, ending in "..."', async () => {
    const exact = 'a'.repeat(2048);
    expect((await answerTo(new HttpError(400, exact))).body).toEqual(envelope(400, exact));
    const longer = `${'b'.repeat(2045)}cdef`;
    expect((await answerTo(new HttpError(400, longer))).body).toEqual(envelope(400, `${'b'.repeat(2045)}...`));
  });
});

describe('a 400 naming fields', () => {
  it('keeps the first 100 fields, each path and message clipped to 512 characters', async () => {
    const longPath = `/body/${'p'.repeat(507)}`;
    const errors: FieldError[] = [
      { path: longPath, message: 'm'.repeat(512) },
      { path: `/body/${'q'.repeat(506)}`, message: `${'n'.repeat(510)}xyz` },
      ...Array.from({ length: 101 }, (_, i) => ({ path: `/body/f${i}`, message: 'is required' })),
    ];
    const response = await answerTo(new FieldValidationError(errors));
    expect(response.status).toBe(400);
    expect(response.body.error.metadata.errors).toEqual([
      { path: `/body/${'p'.repeat(503)}...`, message: 'm'.repeat(512) },
      { path: `/body/${'q'.repeat(506)}`, message: `${'n'.repeat(509)}...` },
      ...Array.from({ length: 98 }, (_, i) => ({ path: `/body/f${i}`, message: 'is required' })),
    ]);
  });

  it('sums up the first three fields in its message, each part clipped to 200 characters, then how many more', async () => {
    const errors: FieldError[] = [
      { path: `/body/${'p'.repeat(194)}`, message: 'x'.repeat(201) },
      { path: '/body/b', message: 'must be boolean' },
      { path: '/body/c', message: 'is required' },
      { path: '/body/d', message: 'is required' },
    ];
    expect((await answerTo(new FieldValidationError(errors))).body.error.message).toBe(
      `Invalid request: /body/${'p'.repeat(194)} ${'x'.repeat(197)}...; /body/b must be boolean; /body/c is required (and 1 more)`,
    );
    expect((await answerTo(new FieldValidationError(errors.slice(1)))).body.error.message).toBe(
      'Invalid request: /body/b must be boolean; /body/c is required; /body/d is required',
    );
  });

  it('says that the list stopped only past as many fields as metadata.errors lists', async () => {
    const listed = envelopeBounds(spec).fieldErrors;
    const fields = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ path: `/body/f${i}`, message: 'is required' }));
    expect((await answerTo(new FieldValidationError(fields(listed)))).body.error.message).toMatch(
      new RegExp(`\\(and ${listed - 3} more\\)$`),
    );
    expect((await answerTo(new FieldValidationError(fields(listed + 1)))).body.error.message).toMatch(
      new RegExp(`\\(and more: metadata.errors lists the first ${listed}\\)$`),
    );
  });
});

describe("the validator's errors", () => {
  const validatorError = (status: unknown, extra: Record<string, unknown> = {}) =>
    Object.assign(new Error('the validator says no'), { status, errors: [], ...extra });

  it("name fields with OpenAPI's words for where a value is, and say 'is invalid' when the validator says nothing", () => {
    expect(
      validatorFieldErrors([
        { path: '/params/id', message: 'must match format "uuid"' },
        { path: '/headers/if-match', message: 'must NOT have more than 512 characters' },
        { path: '/body/params/headers/x', message: 'must be string' },
        { path: '/query/limit' },
        { path: '', message: 'must be object' },
        { message: 'must be object' },
      ]),
    ).toEqual([
      { path: '/path/id', message: 'must match format "uuid"' },
      { path: '/header/if-match', message: 'must NOT have more than 512 characters' },
      { path: '/body/params/headers/x', message: 'must be string' },
      { path: '/query/limit', message: 'is invalid' },
      { path: '/', message: 'must be object' },
      { path: '/', message: 'must be object' },
    ]);
  });

  it.each([
    [413, 'Request body is too large.'],
    [415, 'Unsupported media type: send the body as application/json.'],
    // The operation match answers 404 and 405 before the validator sees a request: its own words would name its internals.
    [404, 'The request could not be read.'],
    [418, 'The request could not be read.'],
  ])('answer %i with the message %j', async (status, message) => {
    const response = await answerTo(validatorError(status));
    expect(response.status).toBe(status);
    expect(response.body).toEqual(envelope(status, message));
  });

  it('carry no header of their own: Allow is the operation match’s', async () => {
    const allowed = await answerTo(validatorError(405, { headers: { Allow: 'GET, PATCH' } }));
    expect(allowed.status).toBe(405);
    expect(allowed.headers.get('allow')).toBeNull();
  });

  it('are a 500 when their status is not a client error, or not a number', async () => {
    for (const status of [302, 500, '404']) {
      const response = await answerTo(validatorError(status));
      expect(response.status, String(status)).toBe(500);
      expect(response.body).toEqual(internalError);
    }
    expect(unexpectedErrors()).toHaveLength(3);
  });
});

describe("the body parser's errors", () => {
  const bodyParserError = (type: string, status?: number) =>
    Object.assign(new Error('the body parser says no'), { type, ...(status !== undefined && { status }) });

  it('answer a read failure of a client-error status with that status', async () => {
    for (const status of [400, 499]) {
      const response = await answerTo(bodyParserError('request.size.invalid', status));
      expect(response.status).toBe(status);
      expect(response.body).toEqual(envelope(status, 'The request could not be read.'));
    }
  });

  it('say which content coding could not be decoded, for a 400 of a coded body only', async () => {
    const corrupt = bodyParserError('request.size.invalid', 400);
    expect((await answerTo(corrupt, { 'content-encoding': 'gzip' })).body).toEqual(
      envelope(400, 'The request body could not be decoded: its gzip stream is corrupt or cut short.'),
    );
    for (const [status, coding] of [
      [400, 'Identity'],
      [499, 'gzip'],
    ] as const) {
      const response = await answerTo(bodyParserError('request.size.invalid', status), { 'content-encoding': coding });
      expect(response.body, coding).toEqual(envelope(status, 'The request could not be read.'));
    }
  });

  it('name the body as not valid JSON when they carry no text of it', async () => {
    const response = await answerTo(bodyParserError('entity.parse.failed', 400));
    expect(response.status).toBe(400);
    expect(response.body.error.metadata.errors).toEqual([{ path: '/body', message: 'is not valid JSON' }]);
  });

  it('are a 500 when their status is not a client error, or missing', async () => {
    for (const error of [
      bodyParserError('stream.not.readable', 500),
      bodyParserError('request.size.invalid', 399),
      bodyParserError('entity.parse.failed'),
      bodyParserError('charset.unsupported'),
    ]) {
      const response = await answerTo(error);
      expect(response.status, error.type).toBe(500);
      expect(response.body).toEqual(internalError);
    }
  });
});

describe("a library's error of a client-error status", () => {
  it('is read from statusCode when it has no status', async () => {
    const response = await answerTo(Object.assign(new Error('raw body says no'), { statusCode: 413 }));
    expect(response.body).toEqual(envelope(413, 'Request body is too large.'));
  });
});

describe('anything else thrown', () => {
  it('is a 500, even a function that carries the properties of a known error', async () => {
    const shapes = [
      { status: 400, errors: [{ path: '/query/limit', message: 'must be <= 100' }] },
      { type: 'entity.parse.failed', status: 400 },
    ];
    for (const shape of shapes) {
      const response = await answerTo(Object.assign(() => undefined, shape));
      expect(response.status).toBe(500);
      expect(response.body).toEqual(internalError);
    }
  });

  it('is handed on, unchanged, to the next error handler when the answer has already started', async () => {
    thrown = new HttpError(400, 'Too late.');
    const response = await fetch(`${baseUrl}/fail-midway`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"partial": ');
    expect(handedOn).toEqual([thrown]);
    expect(logs).toEqual([]);
  });
});

describe('on the server', () => {
  // When set, the read of a page of versions fails with it.
  let failure: Error | undefined;
  const app = useTestServer({
    store: (store) => ({
      ...store,
      presets: {
        ...store.presets,
        pageOfVersions: async (...args: Parameters<typeof store.presets.pageOfVersions>) => {
          if (failure) throw failure;
          return store.presets.pageOfVersions(...args);
        },
      },
    }),
  });
  const workspace = useWorkspace(app);

  afterEach(() => {
    failure = undefined;
    app.logs.length = 0;
  });

  const entry = (found: LogEntry | undefined) =>
    found && {
      level: found.level,
      msg: found.msg,
      method: found.method,
      url: found.url,
      message: (found.err as { message?: string } | undefined)?.message,
    };

  it('logs an unexpected error at error level, with the method and URL of the request', async () => {
    failure = new Error('a bug');
    const path = '/api/v1/presets/demo/versions?limit=5';
    expect((await call(app, 'GET', path, { key: workspace.standardKey })).status).toBe(500);
    expect(entry(app.logs.find((e) => e.msg === 'unexpected error'))).toEqual({
      level: 50,
      msg: 'unexpected error',
      method: 'GET',
      url: path,
      message: 'a bug',
    });
  });

  it('logs an unreachable database as a warning, with the URL of the request', async () => {
    failure = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const path = '/api/v1/presets/demo/versions';
    expect((await call(app, 'GET', path, { key: workspace.standardKey })).status).toBe(503);
    expect(entry(app.logs.find((e) => e.msg === 'database unavailable'))).toEqual({
      level: 40,
      msg: 'database unavailable',
      method: undefined,
      url: path,
      message: 'connect ECONNREFUSED',
    });
    expect(app.serverErrors()).toEqual([]);
  });

  it.each([
    ['a charset other than UTF-8', { 'content-type': 'application/json; charset=latin1' }],
    ['a content encoding it does not know', { 'content-type': 'application/json', 'content-encoding': 'compress' }],
  ])('answers 415 to a body with %s', async (_name, headers) => {
    const response = await call(
      app,
      'PATCH',
      '/api/v1/observability/destinations/7019b9f2-c5e6-4f46-873e-55a17bb095a3',
      {
        key: workspace.managementKey,
        rawBody: '{}',
        headers,
      },
    );
    expect(response.status).toBe(415);
    expect(response.body).toEqual(envelope(415, 'Unsupported request encoding; send UTF-8 JSON.'));
  });
});
