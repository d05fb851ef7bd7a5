// A body the server cannot read is the client's fault, answered with a 4xx in the envelope, never a
// 5xx: a compressed body whose stream is corrupt, cut short or inflates past the limit, in each
// coding the server takes, and a body shorter than its Content-Length. An upload the client gives
// up on is answered to no one and logged as nothing worse than a warning. Each request is written
// byte for byte on a socket.
import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_HOST, unparsableRequestAnswer } from '../../server/http/unparsable-requests.js';
import { BODY_LIMIT_BYTES } from '../../server/request-pipeline.js';
import { readDestination } from '../support/destinations.js';
import { startServerWithDestination } from '../support/server.js';

let app: Awaited<ReturnType<typeof startServerWithDestination>>;

beforeAll(async () => {
  // The server's own HTTP server: what Node's parser cannot read is answered there.
  app = await startServerWithDestination({ httpServer: true });
});

afterAll(async () => {
  await app?.server.close();
});

interface RawAnswer {
  status: number;
  body: string;
}

/** Writes the request's head and body; with `halfClose`, ends the client's side once they are written. */
function send(head: Record<string, string>, body: Buffer, { halfClose = false } = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(app.server.baseUrl);
  const lines = [
    `PATCH ${app.destinationPath} HTTP/1.1`,
    `Host: ${hostname}`,
    `Authorization: Bearer ${app.workspace.managementKey}`,
    'Content-Type: application/json',
    'Connection: close',
    ...Object.entries(head).map(([name, value]) => `${name}: ${value}`),
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      socket.write(body);
      if (halfClose) socket.end();
    });
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('end', () => {
      const [status = '', ...rest] = received.split('\r\n');
      resolve({ status: Number(status.split(' ')[1]), body: rest.join('\r\n').split('\r\n\r\n').slice(1).join('') });
    });
    socket.on('error', reject);
  });
}

const json = Buffer.from('{"sampling_rate": 0.5, "name": "a name long enough to compress into a real stream"}');
const codings: [string, (input: Buffer) => Buffer][] = [
  ['gzip', gzipSync],
  ['deflate', deflateSync],
  ['br', brotliCompressSync],
];

/** The stream with a byte of its compressed data changed: a check or a distance fails as it inflates. */
function corrupt(stream: Buffer): Buffer {
  const copy = Buffer.from(stream);
  for (let i = Math.floor(copy.length / 3); i < copy.length - 4; i += 3) copy[i] = (copy[i] ?? 0) ^ 0xa5;
  return copy;
}

function expectEnvelope(answer: RawAnswer, status: number) {
  expect(answer.status).toBe(status);
  const body = JSON.parse(answer.body.replace(/^[0-9a-f]+\r\n|\r\n0\r\n$/g, '')) as { error: { code: number } };
  expect(body.error.code).toBe(status);
}

describe('a body the server cannot read', () => {
  it.each(codings)('answers 400 in the envelope to a corrupt %s stream', async (coding, compress) => {
    const body = corrupt(compress(json));
    const answer = await send({ 'Content-Encoding': coding, 'Content-Length': String(body.length) }, body);
    expectEnvelope(answer, 400);
    expect(answer.body).toContain('could not be decoded');
  });

  it.each(codings)('answers 400 in the envelope to a %s stream cut short', async (coding, compress) => {
    const stream = compress(json);
    const body = stream.subarray(0, Math.floor(stream.length / 2));
    const answer = await send({ 'Content-Encoding': coding, 'Content-Length': String(body.length) }, body);
    expectEnvelope(answer, 400);
  });

  it.each(codings)(
    'answers 413 in the envelope to a %s stream that inflates past the body limit',
    async (coding, compress) => {
      // A few kilobytes on the wire, over 100 KB once inflated: the limit is on what is read.
      const inflated = Buffer.from(`{"name": "${'a'.repeat(BODY_LIMIT_BYTES + 1000)}"}`);
      const body = compress(inflated);
      expect(body.length).toBeLessThan(BODY_LIMIT_BYTES);
      const answer = await send({ 'Content-Encoding': coding, 'Content-Length': String(body.length) }, body);
      expectEnvelope(answer, 413);
      expect(answer.body).toContain(`Request body is larger than ${BODY_LIMIT_BYTES} bytes.`);
    },
  );

  it('answers 400 in the envelope to a body shorter than its Content-Length, the client done sending', async () => {
    const answer = await send({ 'Content-Length': String(json.length + 40) }, json, { halfClose: true });
    expectEnvelope(answer, 400);
  });

  it('logs no error for any of them, nor for an upload the client gives up on', async () => {
    await new Promise<void>((resolve, reject) => {
      const { hostname, port } = new URL(app.server.baseUrl);
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          `PATCH ${app.destinationPath} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${app.workspace.managementKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name": `,
        );
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    // The server is still serving, and said nothing worse than a warning of any of these requests.
    expect((await send({ 'Content-Length': String(json.length) }, json)).status).toBe(200);
    expect(app.server.serverErrors()).toEqual([]);
  });
});

describe('the answer to what cannot be read', () => {
  it('is the envelope of its status, said to be the last on its connection and not to be kept', () => {
    const body = '{"error":{"code":408,"message":"The request took too long to arrive.","metadata":null}}';
    expect(unparsableRequestAnswer('ERR_HTTP_REQUEST_TIMEOUT')).toBe(
      [
        'HTTP/1.1 408 Request Timeout',
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${body.length}`,
        'Cache-Control: no-store',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
    expect(unparsableRequestAnswer('HPE_INVALID_METHOD')).toContain(
      '"code":400,"message":"The request could not be read',
    );
    expect(unparsableRequestAnswer(undefined, 'Said otherwise.')).toContain('"code":400,"message":"Said otherwise."');
  });
});

describe('a head the server cannot read', () => {
  it('answers 431 in the envelope to header fields over the parser limit, and closes', async () => {
    const answer = await send({ 'X-Padding': 'x'.repeat(20_000) }, Buffer.from('{}'));
    expectEnvelope(answer, 431);
    expect(answer.body).toContain('too large');
  });
});

describe('a request HTTP/1.1 does not allow', () => {
  it('answers 400 in the envelope to a request without Host (RFC 9112 §3.2)', async () => {
    const { hostname, port } = new URL(app.server.baseUrl);
    const received = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.write(`GET /api/v1/keys/${'0'.repeat(64)} HTTP/1.1\r\nConnection: close\r\n\r\n`),
      );
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(received.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    const body = JSON.parse(received.split('\r\n\r\n')[1] ?? '') as { error: { code: number } };
    expect(body.error.code).toBe(400);
  });

  it('serves an HTTP/1.0 request without Host, which that version allows', async () => {
    const { hostname, port } = new URL(app.server.baseUrl);
    const received = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.write(
          `GET /api/v1/keys/${'0'.repeat(64)} HTTP/1.0\r\nAuthorization: Bearer ${app.workspace.managementKey}\r\n\r\n`,
        ),
      );
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(received.split('\r\n')[0]).toBe('HTTP/1.1 404 Not Found');
    expect(received).not.toContain(MISSING_HOST);
  });

  it('answers a PATCH without Host in full before the app, which never reads it: nothing changes', async () => {
    const { hostname, port } = new URL(app.server.baseUrl);
    const id = app.destinationPath.split('/').pop() ?? '';
    const before = await readDestination(app.server.store, app.workspace.id, id);
    const body = '{"sampling_rate": 0.125}';
    const received = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.write(
          [
            `PATCH ${app.destinationPath} HTTP/1.1`,
            `Authorization: Bearer ${app.workspace.managementKey}`,
            'Content-Type: application/json',
            `Content-Length: ${body.length}`,
            '',
            body,
          ].join('\r\n'),
        ),
      );
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    expect(received).toBe(unparsableRequestAnswer(undefined, MISSING_HOST));
    await new Promise((resolve) => setImmediate(resolve));
    const after = await readDestination(app.server.store, app.workspace.id, id);
    expect(before?.revision).toBeTypeOf('number');
    expect(after?.revision).toBe(before?.revision);
    expect(after?.state).toEqual(before?.state);
  });
});

/**
 * Writes the steps on one connection, each once the answers to the ones before it have come (the
 * first at once), and resolves to everything received when the server closes it.
 */
function converse(steps: string[]): Promise<string> {
  const { hostname, port } = new URL(app.server.baseUrl);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let received = '';
    const socket = connect(Number(port), hostname, () => socket.write(steps[sent++] ?? ''));
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const answers = received.match(/HTTP\/1\.1 \d{3} /g)?.length ?? 0;
      if (sent < steps.length && answers >= sent) socket.write(steps[sent++] ?? '');
    });
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

describe('what cannot be read after other requests on a connection', () => {
  const keyRequest = () =>
    [
      `GET /api/v1/keys/${'0'.repeat(64)} HTTP/1.1`,
      `Host: ${new URL(app.server.baseUrl).host}`,
      `Authorization: Bearer ${app.workspace.managementKey}`,
      '',
      '',
    ].join('\r\n');
  const unreadable = 'NOT HTTP\r\n\r\n';
  // An answer's status line follows the body before it, which ends with no line break.
  const statusLines = (received: string) => received.match(/HTTP\/1\.1 \d{3} [^\r]*/g) ?? [];

  it('answers a head it cannot read on a kept-alive connection in the envelope, after the answer before', async () => {
    const received = await converse([keyRequest(), unreadable]);
    expect(statusLines(received)).toEqual(['HTTP/1.1 404 Not Found', 'HTTP/1.1 400 Bad Request']);
    expect(received.endsWith(unparsableRequestAnswer('HPE_INVALID_METHOD'))).toBe(true);
  });

  it('answers a pipelined request first, then the head after it that it cannot read', async () => {
    const received = await converse([keyRequest() + unreadable]);
    expect(statusLines(received)).toEqual(['HTTP/1.1 404 Not Found', 'HTTP/1.1 400 Bad Request']);
    expect(received.endsWith(unparsableRequestAnswer('HPE_INVALID_METHOD'))).toBe(true);
  });

  it('answers a request once: a body that turns out unreadable after its answer only closes the connection', async () => {
    const head = [
      `PATCH ${app.destinationPath} HTTP/1.1`,
      `Host: ${new URL(app.server.baseUrl).host}`,
      'Content-Type: application/json',
      'Transfer-Encoding: chunked',
      '',
      '',
    ].join('\r\n');
    // No key: the 401 goes out before the body is read, and the next chunk's size is not hexadecimal.
    const received = await converse([head, 'zz\r\n{}\r\n0\r\n\r\n']);
    expect(statusLines(received)).toEqual(['HTTP/1.1 401 Unauthorized']);
  });
});

describe('a JSON body with a member name twice (RFC 8259 §4)', () => {
  it('is read as its last value, which is the one validated: nothing unvalidated is stored', async () => {
    const sent = (text: string) => send({ 'Content-Length': String(Buffer.byteLength(text)) }, Buffer.from(text));
    const accepted = await sent('{"sampling_rate": 5, "sampling_rate": 0.25}');
    expect(accepted.status).toBe(200);
    expect(JSON.parse(accepted.body).data.sampling_rate).toBe(0.25);
    expectEnvelope(await sent('{"sampling_rate": 0.5, "sampling_rate": 5}'), 400);
  });
});
