// The order of the checks (openapi.yaml, "Order of the checks"): path and method, then the key,
// the rate limit and the key's kind, then the request itself. A request without a valid key is
// refused before its body is read or anything of it is checked against the spec.
import { describe, expect, it } from 'vitest';
import { operationPath, specOperations } from '../../server/spec.js';
import { call, rawCall, spec } from '../support/server.js';
import { findOperation } from '../support/spec.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

const destinationPath = operationPath(spec, 'updateObservabilityDestination', {
  id: '7019b9f2-c5e6-4f46-873e-55a17bb095a3',
});
const presetVersionsPath = operationPath(spec, 'listPresetVersions', { slug: 'none' });

describe('a request without a valid key', () => {
  const server = useTestServer();

  it('is answered 401 without the server waiting for a body it was promised', async () => {
    // Content-Length promises 1,000 bytes; 2 are sent: a server that read the body first would wait.
    const answer = await rawCall(
      server,
      [`PATCH ${destinationPath} HTTP/1.1`, 'Content-Type: application/json', 'Content-Length: 1000'].join('\r\n'),
      '{"',
    );
    expect(answer.status).toBe(401);
  });

  it.each([
    ['a body over the size limit', 'x'.repeat(200 * 1024), 'application/json'],
    ['a body that is not JSON', '{"sampling_rate":', 'application/json'],
    ['a body of the wrong media type', 'sampling_rate=1', 'application/x-www-form-urlencoded'],
    ['a body that breaks the schema', '{"sampling_rate":7}', 'application/json'],
    ['a Content-Type parameter the contract does not take', '{}', 'application/json; p=1'],
  ])('is 401, not the error of %s', async (_name, rawBody, contentType) => {
    const answer = await call(server, 'PATCH', destinationPath, { rawBody, headers: { 'content-type': contentType } });
    expect([answer.status, answer.headers.get('www-authenticate')]).toEqual([401, 'Bearer realm="api"']);
  });

  it('is 401, not 400, for a path or query value the contract refuses', async () => {
    const badId = operationPath(spec, 'updateObservabilityDestination', { id: 'not-a-uuid' });
    expect((await call(server, 'PATCH', badId, { body: {} })).status).toBe(401);
    expect((await call(server, 'GET', `${presetVersionsPath}?limit=0&unknown=1`)).status).toBe(401);
  });

  it('gets the 404 of a path of no operation, and the 405 of a method the path does not take, as any caller', async () => {
    expect((await call(server, 'GET', '/api/v1/no-such-path')).status).toBe(404);
    const wrongMethod = await call(server, 'DELETE', destinationPath);
    const taken = specOperations(spec)
      .filter((entry) => entry.template === findOperation('updateObservabilityDestination').template)
      .map((entry) => entry.method.toUpperCase());
    // A path that takes GET takes HEAD too (RFC 9110, 9.3.2), and says so in Allow.
    if (taken.includes('GET')) taken.push('HEAD');
    expect(taken).toContain('PATCH');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')?.split(', ').sort()).toEqual(taken.sort());
  });
});

describe('a request from an address past its failed-authentication limit', () => {
  const server = useTestServer({ authFailureLimit: { windowMs: 60_000, limit: 1 } });

  it('is 429 before its body is read or checked', async () => {
    expect((await call(server, 'PATCH', destinationPath, { body: {} })).status).toBe(401);
    const answer = await call(server, 'PATCH', destinationPath, {
      rawBody: '{"sampling_rate":',
      headers: { 'content-type': 'application/json' },
    });
    expect([answer.status, answer.body.error.code]).toEqual([429, 429]);
  });
});

describe('a caller with a valid key', () => {
  const server = useTestServer();
  const workspace = useWorkspace(server);

  it('of a kind the operation does not accept gets 403 before the body is checked', async () => {
    const answer = await call(server, 'PATCH', destinationPath, {
      key: workspace.standardKey,
      rawBody: '{"sampling_rate":',
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(403);
  });

  it('of the right kind gets the request checked: 400 for a body that breaks the schema', async () => {
    const answer = await call(server, 'PATCH', destinationPath, {
      key: workspace.managementKey,
      body: { sampling_rate: 7 },
    });
    expect(answer.body.error.metadata.errors).toEqual([
      { path: '/body/sampling_rate', message: expect.stringContaining('<= 1') },
    ]);
  });
});
