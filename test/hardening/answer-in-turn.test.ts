// answerInTurn (server/http/answer-in-turn.ts) in this process, on a bare HTTP server: the requests
// a client pipelines on one connection are served one at a time, in order, and those waiting on a
// connection that closed are never served. test/hardening/unread-answers.test.ts holds the server
// itself to it, against a client that never reads.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answerInTurn } from '../../server/http/answer-in-turn.js';

let server: Server | undefined;
let client: Socket | undefined;
afterEach(async () => {
  client?.destroy();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** A server whose handler records each URL it serves and holds the answers to /held/…; a client connected to it. */
async function serving(): Promise<{ served: string[]; held: Map<string, ServerResponse>; received: () => string }> {
  const served: string[] = [];
  const held = new Map<string, ServerResponse>();
  server = createServer(
    answerInTurn((req: IncomingMessage, res: ServerResponse) => {
      const url = req.url ?? '';
      served.push(url);
      if (url.startsWith('/held/')) held.set(url, res);
      else res.end(url);
    }),
  );
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  client = socket;
  let text = '';
  socket.on('data', (data) => {
    text += data.toString('latin1');
  });
  await new Promise((resolve) => socket.once('connect', resolve));
  return { served, held, received: () => text };
}

/** The requests written at once, as a client that pipelines them does. */
const pipelined = (...urls: string[]) => urls.map((url) => `GET ${url} HTTP/1.1\r\nHost: test\r\n\r\n`).join('');

/** Resolves once the answer `res` is done with (its 'close', which comes after its 'finish') and the events it set off have run. */
const ended = (res: ServerResponse | undefined) =>
  new Promise((resolve) => res?.once('close', () => setImmediate(resolve)));

describe('answerInTurn', () => {
  it('serves the requests pipelined on a connection one at a time, in the order they came', async () => {
    const { served, held, received } = await serving();
    client?.write(pipelined('/held/1', '/held/2', '/3'));
    await expect.poll(() => served.length).toBe(1);
    expect(served).toEqual(['/held/1']);
    const first = held.get('/held/1');
    const done = ended(first);
    first?.end('one');
    await done;
    expect(served).toEqual(['/held/1', '/held/2']);
    held.get('/held/2')?.end('two');
    await expect.poll(() => served).toEqual(['/held/1', '/held/2', '/3']);
    await expect.poll(() => received().match(/\r\n\r\n(\w+|\/3)/g)?.length).toBe(3);
    expect([...received().matchAll(/\r\n\r\n([^H]+)/g)].map((match) => match[1])).toEqual(['one', 'two', '/3']);
  });

  it('never serves the requests waiting on a connection that closed', async () => {
    const { served, held } = await serving();
    client?.write(pipelined('/held/1', '/2', '/3'));
    await expect.poll(() => served.length).toBe(1);
    const first = held.get('/held/1');
    const closed = ended(first);
    client?.destroy();
    await closed;
    expect(served).toEqual(['/held/1']);
  });
});
