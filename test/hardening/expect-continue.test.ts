// `Expect: 100-continue` and bodies that do not come. A request refused by a check that needs no
// body (the key, its kind, the Content-Type) is answered at once, without `100 Continue`: the
// client is not invited to send a body nobody reads. A request that passes them gets
// `100 Continue`, then its answer. A refusal sent before the body has arrived closes the
// connection, so that a slow body does not hold it until the request timeout.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../server/request-pipeline.js';
import { findOperation } from '../support/spec.js';
import { useDestination, useTestServer, useWorkspace } from '../support/use-test-server.js';

const { method } = findOperation('updateObservabilityDestination');
const PROMPT_CLOSE_MS = 2000;

const server = useTestServer({ httpServer: true });
const workspace = useWorkspace(server);
const destination = useDestination(server, workspace);

interface Exchange {
  /** Everything the server sent, in order. */
  received: string;
  /** Whether the server closed the connection within PROMPT_CLOSE_MS of its first answer. */
  closedPromptly: boolean;
}

/**
 * Writes the head of a request, then `body` once the server has answered `100 Continue` (when
 * `awaitContinue`) or at once; resolves once the server has closed the connection, or
 * PROMPT_CLOSE_MS after its last bytes.
 */
function exchange(headers: Record<string, string>, body: string, awaitContinue: boolean): Promise<Exchange> {
  const { hostname, port } = new URL(server.baseUrl);
  const head = [
    `${method.toUpperCase()} ${destination.path} HTTP/1.1`,
    `Host: ${hostname}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    let received = '';
    let idle: NodeJS.Timeout | undefined;
    const socket = connect(Number(port), hostname, () => {
      socket.write(`${head}\r\n\r\n`);
      if (!awaitContinue) socket.write(body);
    });
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      if (awaitContinue && received === 'HTTP/1.1 100 Continue\r\n\r\n') socket.write(body);
      clearTimeout(idle);
      idle = setTimeout(() => {
        socket.destroy();
        resolve({ received, closedPromptly: false });
      }, PROMPT_CLOSE_MS);
    });
    socket.on('close', () => {
      clearTimeout(idle);
      resolve({ received, closedPromptly: true });
    });
    socket.on('error', reject);
  });
}

const statusLines = (received: string) => received.split('\r\n').filter((line) => line.startsWith('HTTP/1.1 '));
const connectionHeader = (received: string) => /\r\nConnection: (\S+)\r\n/i.exec(received)?.[1]?.toLowerCase();

const json = { 'Content-Type': 'application/json' };
const body = '{"sampling_rate":0.5}';
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

describe('a request with Expect: 100-continue', () => {
  it.each([
    ['without a key', () => ({}), json, '401'],
    ['with a key of a kind the operation does not take', () => bearer(workspace.standardKey), json, '403'],
    [
      'with a Content-Type the operation does not take',
      () => bearer(workspace.managementKey),
      { 'Content-Type': 'text/plain' },
      '415',
    ],
  ])('%s is refused at once, without 100 Continue, and its connection closed', async (_case, key, type, status) => {
    const answer = await exchange(
      { ...key(), ...type, 'Content-Length': String(body.length), Expect: '100-continue' },
      body,
      true,
    );
    expect(statusLines(answer.received)).toEqual([expect.stringMatching(new RegExp(`^HTTP/1.1 ${status} `))]);
    expect([connectionHeader(answer.received), answer.closedPromptly]).toEqual(['close', true]);
  });

  it('that passes the checks needing no body gets 100 Continue, then its answer', async () => {
    const answer = await exchange(
      { ...bearer(workspace.managementKey), ...json, 'Content-Length': String(body.length), Expect: '100-continue' },
      body,
      true,
    );
    expect(statusLines(answer.received)).toEqual(['HTTP/1.1 100 Continue', 'HTTP/1.1 200 OK']);
  });
});

describe('a refusal before the body has arrived', () => {
  it.each([
    ['401, without a key', () => ({}), 1000, '401'],
    ['413, for a body over the limit', () => bearer(workspace.managementKey), 2 * BODY_LIMIT_BYTES, '413'],
  ])('%s closes the connection at once, with Connection: close', async (_case, key, length, status) => {
    // A few bytes of the promised body, then nothing: a slow client.
    const answer = await exchange({ ...key(), ...json, 'Content-Length': String(length) }, '{"', false);
    expect(statusLines(answer.received)).toEqual([expect.stringMatching(new RegExp(`^HTTP/1.1 ${status} `))]);
    expect([connectionHeader(answer.received), answer.closedPromptly]).toEqual(['close', true]);
  });

  it('does not close a connection whose request was read in full', async () => {
    const invalid = '{"sampling_rate":7}';
    const answer = await exchange(
      { ...bearer(workspace.managementKey), ...json, 'Content-Length': String(invalid.length) },
      invalid,
      false,
    );
    expect(statusLines(answer.received)).toEqual(['HTTP/1.1 400 Bad Request']);
    expect([connectionHeader(answer.received), answer.closedPromptly]).toEqual(['keep-alive', false]);
  });
});
