// Whether an answer may be kept by a cache is the contract's to say: each operation's success answer
// carries the Cache-Control its response documents in openapi.yaml (no-store where a key's data or
// a destination's configuration is in it, private and revalidated for a page of versions). Error
// answers are held to theirs by documented-errors.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationPath, specOperation, specOperations } from '../../server/spec.js';
import {
  type CallResult,
  call,
  createTestDestination,
  createWorkspace,
  provision,
  startTestServer,
  type TestServer,
  type Workspace,
} from '../support/server.js';
import { documentedCacheControl, spec } from '../support/spec.js';

let server: TestServer;
let workspace: Workspace;
let destinationPath: string;

beforeAll(async () => {
  server = await startTestServer();
  workspace = await createWorkspace(server.store, server.clock.now());
  destinationPath = await createTestDestination(server, workspace);
  await provision.addPresetVersion(
    server.store,
    { workspaceId: workspace.id, slug: 'cached', config: { model: 'm/x' } as never, creatorId: 'u' },
    server.clock.now(),
  );
});

afterAll(async () => {
  await server?.close();
});

/**
 * A request an operation answers with 200, made from openapi.yaml: its method, its path with each
 * path parameter the object of that name this test made, and its first request body example.
 */
function succeeding(operationId: string): Promise<CallResult> {
  const { method, operation } = specOperation(spec, operationId);
  const path = operationPath(spec, operationId, {
    hash: workspace.standardKeyHash,
    id: destinationPath.split('/').pop() ?? '',
    slug: 'cached',
  });
  const examples = (
    operation.requestBody?.content['application/json'] as { examples?: Record<string, { value: unknown }> }
  )?.examples;
  const body = examples && Object.values(examples)[0]?.value;
  return call(server, method.toUpperCase(), path, {
    key: workspace.managementKey,
    ...(body !== undefined && { body }),
  });
}

describe('Cache-Control', () => {
  it.each(specOperations(spec).map(({ operation }) => operation.operationId ?? ''))(
    '%s: its 200 carries what openapi.yaml documents',
    async (operationId) => {
      const response = await succeeding(operationId);
      expect(response.status).toBe(200);
      const documented = documentedCacheControl(operationId, '200');
      expect(typeof documented).toBe('string');
      expect(response.headers.get('cache-control')).toBe(documented);
    },
  );

  it('is no-store where a key or a configuration is in the answer, and private for a page', () => {
    expect(documentedCacheControl('getKey', '200')).toBe('no-store');
    expect(documentedCacheControl('updateObservabilityDestination', '200')).toBe('no-store');
    expect(documentedCacheControl('listPresetVersions', '200')).toBe('private, no-cache');
  });
});
