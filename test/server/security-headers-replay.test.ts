// The security headers are taken from helmet once, at start, and replayed on every answer: a helmet
// that wrote them later than at once, or failed, could not be replayed, and the server says so as it
// starts rather than answering without them.
import type { RequestHandler } from 'express';
import { afterAll, describe, expect, it, vi } from 'vitest';

const fakeHelmet = vi.hoisted(() => ({ middleware: ((_req, _res, next) => next()) as RequestHandler }));

vi.mock('helmet', () => ({
  default: (): RequestHandler => (req, res, next) => fakeHelmet.middleware(req, res, next),
}));

afterAll(() => {
  // Files that share this module registry (a run without isolation) load the real helmet.
  vi.doUnmock('helmet');
  vi.resetModules();
});

// Loaded afresh: a file before this one in the same module registry may have loaded it with the real helmet.
vi.resetModules();
const { securityHeaders } = await import('../../server/http/security-headers.js');

describe('security headers from a helmet that cannot be replayed', () => {
  it('are refused when helmet does not write them at once', () => {
    fakeHelmet.middleware = () => undefined;
    expect(() => securityHeaders()).toThrow(new Error('helmet did not write its headers at once'));
  });

  it("are refused with helmet's own error when helmet fails", () => {
    const failure = new Error('helmet cannot');
    fakeHelmet.middleware = (_req, _res, next) => next(failure);
    expect(() => securityHeaders()).toThrow(failure);
  });
});
