// The security headers, computed once from helmet, are exactly what helmet itself writes on a live
// response with the same options: same names and values, X-Powered-By removed.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import helmet from 'helmet';
import { describe, expect, it, vi } from 'vitest';
import { SECURITY_HEADER_OPTIONS, securityHeaders } from '../../server/http/security-headers.js';

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
