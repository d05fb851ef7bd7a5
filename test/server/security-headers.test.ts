// The security headers of every answer: computed once from helmet, they are exactly what helmet
// itself writes on a live response with the same options (X-Powered-By removed); a helmet whose
// headers cannot be replayed stops the server as it starts; and the Content-Security-Policy of the
// API's answers is exactly helmet's defaults narrowed for a JSON API, which serves no documents, so
// that nothing may be loaded from an answer and no page may frame one, whatever the route or status.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SECURITY_HEADER_OPTIONS, securityHeaders } from '../../server/http/security-headers.js';
import { call } from '../support/server.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/** The raw headers of one answer of a node:http server that runs `middleware` and then ends. */
async function headersWritten(middleware: Middleware): Promise<string[]> {
  const server = createServer((req, res) => {
    res.setHeader('X-Powered-By', 'something');
    middleware(req, res, () => res.end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    await answer.text();
    return [...answer.headers]
      .filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length'].includes(name))
      .flat();
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('security headers', () => {
  it('are the headers helmet writes with the same options', async () => {
    const ours = await headersWritten(securityHeaders() as unknown as Middleware);
    const helmets = await headersWritten(helmet(SECURITY_HEADER_OPTIONS) as unknown as Middleware);
    expect(ours).toEqual(helmets);
    expect(ours).toContain('content-security-policy');
    expect(ours).not.toContain('x-powered-by');
  });

  it('remove on each answer the headers helmet removes, X-Powered-By, and no other', () => {
    const removed: string[] = [];
    const response = { setHeader: () => response, removeHeader: (name: string) => removed.push(name) };
    const next = vi.fn();
    (securityHeaders() as unknown as Middleware)({} as IncomingMessage, response as unknown as ServerResponse, next);
    expect([removed, next.mock.calls]).toEqual([['X-Powered-By'], [[]]]);
  });
});

describe('security headers from a helmet that cannot be replayed', () => {
  const fakeHelmet = { middleware: ((_req, _res, next) => next()) as RequestHandler };
  let replayed: typeof securityHeaders;

  beforeAll(async () => {
    // Loaded afresh with helmet stood in for: the module above holds the real one.
    vi.resetModules();
    vi.doMock('helmet', () => ({
      default: (): RequestHandler => (req, res, next) => fakeHelmet.middleware(req, res, next),
    }));
    replayed = (await import('../../server/http/security-headers.js')).securityHeaders;
  });

  afterAll(() => {
    // Files that share this module registry (a run without isolation) load the real helmet.
    vi.doUnmock('helmet');
    vi.resetModules();
  });

  it('are refused when helmet does not write them at once', () => {
    fakeHelmet.middleware = () => undefined;
    expect(() => replayed()).toThrow(new Error('helmet did not write its headers at once'));
  });

  it("are refused with helmet's own error when helmet fails", () => {
    const failure = new Error('helmet cannot');
    fakeHelmet.middleware = (_req, _res, next) => next(failure);
    expect(() => replayed()).toThrow(failure);
  });
});

// helmet's defaults, with default-src and frame-ancestors narrowed to 'none'.
const API_POLICY = [
  "default-src 'none'",
  "base-uri 'self'",
  "font-src 'self' https: data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' https: 'unsafe-inline'",
  'upgrade-insecure-requests',
].join(';');

describe('content security policy of the API', () => {
  const server = useTestServer();
  const workspace = useWorkspace(server);

  it('is the same on a success, an API error and an unknown path', async () => {
    const answers = [
      await call(server, 'GET', '/healthz'),
      await call(server, 'GET', '/api/v1/presets/none/versions'),
      await call(server, 'GET', '/no-such-path'),
    ];
    expect(answers.map((answer) => [answer.status, answer.headers.get('content-security-policy')])).toEqual([
      [200, API_POLICY],
      [401, API_POLICY],
      [404, API_POLICY],
    ]);
  });
  it('sends helmet defaults fit for a JSON API and no X-Powered-By', async () => {
    const response = await call(server, 'GET', `/api/v1/keys/${workspace.standardKeyHash}`, {
      key: workspace.managementKey,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-powered-by')).toBeNull();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect((await call(server, 'GET', '/no-such-path')).headers.get('x-powered-by')).toBeNull();
  });
});
