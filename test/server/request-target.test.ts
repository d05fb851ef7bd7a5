// A request target in absolute form is served as its origin form (RFC 9112 §3.2.2: a server MUST
// accept it), its authority standing for Host; an origin-form target is served as it always was.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toOriginForm } from '../../server/http/request-target.js';
import { createWorkspace, startTestServer, type TestServer, type Workspace } from '../support/server.js';

let server: TestServer;
let workspace: Workspace;

beforeAll(async () => {
  server = await startTestServer({ httpServer: true });
  workspace = await createWorkspace(server.store, server.clock.now());
});

afterAll(async () => {
  await server?.close();
});

/** The status line of the answer to a request written byte for byte. */
function statusOf(requestLine: string, host: string): Promise<string> {
  const { hostname, port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(
        `${requestLine}\r\nHost: ${host}\r\nAuthorization: Bearer ${workspace.managementKey}\r\nConnection: close\r\n\r\n`,
      ),
    );
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('end', () => resolve(received.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

describe('the request target', () => {
  it('in absolute form is served as its origin form, whatever Host says', async () => {
    const { host } = new URL(server.baseUrl);
    const path = `/api/v1/keys/${workspace.standardKeyHash}`;
    expect(await statusOf(`GET ${path} HTTP/1.1`, host)).toBe('HTTP/1.1 200 OK');
    expect(await statusOf(`GET http://${host}${path} HTTP/1.1`, host)).toBe('HTTP/1.1 200 OK');
    expect(await statusOf(`GET HTTP://${host}${path} HTTP/1.1`, 'elsewhere.example')).toBe('HTTP/1.1 200 OK');
    expect(await statusOf(`GET http://${host}/api/v1/keys/${'0'.repeat(64)} HTTP/1.1`, host)).toBe(
      'HTTP/1.1 404 Not Found',
    );
  });

  it('keeps the query and takes the authority as Host; an empty path is /', () => {
    const request = (url: string) => ({ url, headers: { host: 'proxy.example' } }) as never;
    const cases: [string, string, string][] = [
      [
        'http://api.example:8080/api/v1/presets/p/versions?limit=2',
        '/api/v1/presets/p/versions?limit=2',
        'api.example:8080',
      ],
      ['https://api.example', '/', 'api.example'],
      ['http://api.example/api/v1/', '/api/v1/', 'api.example'],
      ['http://api.example?x=1', '/?x=1', 'api.example'],
      ['/api/v1/keys/a', '/api/v1/keys/a', 'proxy.example'],
      ['*', '*', 'proxy.example'],
    ];
    for (const [target, url, host] of cases) {
      const req = request(target) as { url: string; headers: { host: string } };
      toOriginForm(req as never);
      expect([req.url, req.headers.host]).toEqual([url, host]);
    }
  });
});
