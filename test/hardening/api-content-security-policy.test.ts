// The Content-Security-Policy of the API's answers, exactly: a JSON API serves no documents, so
// nothing may be loaded from an answer and no page may frame one, whatever the route or status.
import { describe, expect, it } from 'vitest';
import { call } from '../support/server.js';
import { useTestServer } from '../support/use-test-server.js';

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

const server = useTestServer();

describe('content security policy of the API', () => {
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
});
