// The 401 each kind of bad Authorization header gets, word for word, with the challenge that says
// whether a token was given (RFC 6750); and the 403 of a key of a kind the operation does not accept.
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import type { KeyKind } from '../../server/domain/api-keys.js';
import { requireKeyKind } from '../../server/http/auth.js';
import { HttpError } from '../../server/http/errors.js';
import { requestContext } from '../../server/http/request-context.js';
import { call } from '../support/server.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

const server = useTestServer();
const workspace = useWorkspace(server);

const listVersions = (headers: Record<string, string>) =>
  call(server, 'GET', '/api/v1/presets/none/versions', { headers });

const missing = {
  message: 'Missing API key: send Authorization: Bearer <API key>.',
  challenge: 'Bearer realm="api"',
};
const malformed = {
  message: 'Malformed API key: send Authorization: Bearer <API key>.',
  challenge: 'Bearer realm="api", error="invalid_token"',
};
const invalid = {
  message: 'Invalid API key: it is unknown, disabled or expired.',
  challenge: 'Bearer realm="api", error="invalid_token"',
};

describe('a request without a usable key', () => {
  it.each([
    ['no Authorization header', () => ({}), missing],
    ['an empty Authorization header', () => ({ authorization: '' }), missing],
    ['another scheme', () => ({ authorization: 'Basic dXNlcjpwYXNz' }), malformed],
    [
      'a good key after a scheme that only ends in "bearer"',
      () => ({ authorization: `XBearer ${workspace.standardKey}` }),
      malformed,
    ],
    ['a good key after another word', () => ({ authorization: `Token bearer ${workspace.standardKey}` }), malformed],
    ['a token that is not an API key', () => ({ authorization: 'Bearer not-a-key' }), malformed],
    ['an unknown key', () => ({ authorization: `Bearer sk-or-v1-${'0'.repeat(64)}` }), invalid],
  ])('with %s is answered 401 with the matching message and challenge', async (_name, headers, expected) => {
    const response = await listVersions(headers());
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(expected.challenge);
    expect(response.body).toEqual({ error: { code: 401, message: expected.message, metadata: null } });
  });

  it('is not refused when the same key comes after the Bearer scheme', async () => {
    expect((await listVersions({ authorization: `Bearer ${workspace.standardKey}` })).status).toBe(404);
  });
});

describe('the key-kind check', () => {
  it('names every kind the operation accepts, joined by "or", to a key of another kind', () => {
    const check = requireKeyKind(() => ['management', 'standard']);
    const request = {} as Request;
    requestContext(request).caller = { keyId: 'k', workspaceId: 'w', kind: 'auditor' as KeyKind };
    let thrown: HttpError | undefined;
    try {
      check(request, {} as Response, () => undefined);
    } catch (error) {
      if (error instanceof HttpError) thrown = error;
    }
    expect(
      thrown && { status: thrown.status, message: thrown.message, metadata: thrown.metadata, headers: thrown.headers },
    ).toEqual({
      status: 403,
      message: 'This operation needs a management or standard key.',
      metadata: { accepted_key_kinds: ['management', 'standard'] },
      // RFC 6750 §3.1: insufficient_scope, the scope being the kinds accepted, space-separated.
      headers: { 'WWW-Authenticate': 'Bearer realm="api", error="insufficient_scope", scope="management standard"' },
    });
  });
});
