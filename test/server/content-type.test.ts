// The Content-Type of a request body: a media type of the operation's requestBody, with no
// parameter but charset=utf-8 (openapi.yaml, the PATCH's requestBody and UnsupportedMediaType).

import { describe, expect, it } from 'vitest';
import { contentTypeProblem } from '../../server/http/content-type.js';
import { readDestination } from '../support/destinations.js';
import { call, rawCall } from '../support/server.js';
import { findOperation } from '../support/spec.js';
import { useDestination, useTestServer, useWorkspace } from '../support/use-test-server.js';

const patch = findOperation('updateObservabilityDestination').operation;
const MEDIA_TYPE = 'Unsupported media type: send the body as application/json.';
const PARAMETER =
  'Unsupported media type parameter: send the body as application/json, with no parameter but charset=utf-8.';
const CHARSET = 'Unsupported request encoding; send UTF-8 JSON.';

describe('which Content-Type suits a request body', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON; Charset="UTF-8"',
    'application/json;charset=UTF-8',
  ])('takes %s', (header) => {
    expect(contentTypeProblem(patch, header)).toBeUndefined();
  });

  it.each([
    ['application/json; p=1', PARAMETER],
    ['application/json; charset=utf-8; boundary=x', PARAMETER],
    ['application/json; charset=utf-16', CHARSET],
    ['application/json; charset=latin1', CHARSET],
    ['application/merge-patch+json', MEDIA_TYPE],
    ['text/plain', MEDIA_TYPE],
    ['application/json; =1', PARAMETER],
    ['application/json, text/plain', MEDIA_TYPE],
    ['', MEDIA_TYPE],
  ])('refuses %j: %s', (header, problem) => {
    expect(contentTypeProblem(patch, header)).toBe(problem);
  });
});

describe('the Content-Type of requests to the server', () => {
  const server = useTestServer();
  const workspace = useWorkspace(server);
  const destination = useDestination(server, workspace);

  const patchWith = (contentType: string, body: unknown) =>
    call(server, 'PATCH', destination.path, {
      key: workspace.managementKey,
      rawBody: JSON.stringify(body),
      headers: { 'content-type': contentType },
    });
  const samplingRate = async () =>
    (await readDestination(server.store, workspace.id, destination.path.split('/').pop() ?? ''))?.state.sampling_rate;

  it('answers 415 in the envelope to a parameter other than charset, and changes nothing', async () => {
    // Whatever another test of the file left there: the refused PATCH asks for another rate.
    const before = await samplingRate();
    const answer = await patchWith('application/json; p=1', { sampling_rate: before === 0.5 ? 0.25 : 0.5 });
    expect([answer.status, answer.body]).toEqual([415, { error: { code: 415, message: PARAMETER, metadata: null } }]);
    expect(await samplingRate()).toBe(before);
  });

  it('takes charset=utf-8 in any case, quoted or not', async () => {
    expect((await patchWith('application/json; Charset="UTF-8"', { sampling_rate: 0.5 })).status).toBe(200);
    expect(await samplingRate()).toBe(0.5);
  });

  it('does not look at the Content-Type of a request to an operation without a body', async () => {
    const answer = await call(server, 'GET', '/api/v1/presets/none/versions', {
      key: workspace.managementKey,
      headers: { 'content-type': 'application/json; p=1' },
    });
    expect(answer.status).toBe(404);
  });

  it('leaves unread a body sent to an operation that takes none, whatever its charset: the operation answers', async () => {
    const body = '{}';
    const answer = await rawCall(
      server,
      [
        'GET /api/v1/presets/none/versions HTTP/1.1',
        `Authorization: Bearer ${workspace.managementKey}`,
        'Content-Type: application/json; charset=latin1',
        `Content-Length: ${body.length}`,
      ].join('\r\n'),
      body,
    );
    expect(answer.status).toBe(404);
    expect(answer.body.error.message).toMatch(/preset/i);
  });
});
