// The request's context: its operation is found once, every later layer and the handler read it
// from there, and nothing of it outlives the request.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authenticatedCaller, matchedOperation, requestContext } from '../../server/http/request-context.js';
import { specOperations } from '../../server/spec.js';
import { call, spec, type TestServer, type Workspace } from '../support/server.js';

const matching = vi.hoisted(() => ({ calls: 0 }));

// Every matcher the server makes counts the requests it is asked about.
vi.mock('../../server/http/operation-matcher.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../server/http/operation-matcher.js')>();
  return {
    ...original,
    operationMatcher: ((...args: Parameters<typeof original.operationMatcher>) => {
      const match = original.operationMatcher(...args);
      return (method: string, path: string) => {
        matching.calls++;
        return match(method, path);
      };
    }) as typeof original.operationMatcher,
  };
});

let server: TestServer;
let workspace: Workspace;
let pathValues: Record<string, string>;

beforeAll(async () => {
  // The server is built from modules loaded afresh, which see the counting matcher even where an
  // earlier file of the same module registry (a mutation run's) loaded the real one.
  vi.resetModules();
  const { startTestServer, createWorkspace, createTestDestination, provision } = await import('../support/server.js');
  server = await startTestServer();
  workspace = await createWorkspace(server.store, server.clock.now());
  const destinationPath = await createTestDestination(server, workspace);
  await provision.addPresetVersion(
    server.store,
    { workspaceId: workspace.id, slug: 'matched-once', config: { model: 'x/y' }, creatorId: 'user_1' },
    server.clock.now(),
  );
  pathValues = {
    hash: workspace.standardKeyHash,
    id: destinationPath.split('/').pop() ?? '',
    slug: 'matched-once',
  };
});

afterAll(async () => {
  expect(server.serverErrors()).toEqual([]);
  await server.close();
  vi.doUnmock('../../server/http/operation-matcher.js');
  vi.resetModules();
});

describe('the operation of a request', () => {
  const operations = specOperations(spec);

  it('reads the operations from the contract', () => {
    expect(operations.length).toBeGreaterThan(0);
  });

  for (const { method, template, operation } of operations) {
    it(`is found once for ${operation.operationId}, whose handler answers with the path parameters it was found with`, async () => {
      const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const value = pathValues[name];
        if (value === undefined) throw new Error(`the test has no value for the path parameter ${name}`);
        return encodeURIComponent(value);
      });
      const body = operation.requestBody ? { name: 'matched once' } : undefined;
      const before = matching.calls;
      const response = await call(server, method.toUpperCase(), `/api/v1${path}`, {
        key: workspace.managementKey,
        ...(body && { body }),
      });
      expect(response.status).toBe(200);
      expect(matching.calls - before).toBe(1);
    });
  }

  it('is not found for a path of no operation, which gets its 404 without a handler', async () => {
    const response = await call(server, 'GET', '/api/v1/keys/', { key: workspace.managementKey });
    expect(response.status).toBe(404);
  });
});

describe('the context itself', () => {
  it('is made once per request and kept on it', () => {
    const request = {} as Parameters<typeof requestContext>[0];
    const context = requestContext(request);
    context.fieldErrors.push({ path: '/query/limit', message: 'is wrong' });
    expect(requestContext(request)).toBe(context);
    expect(requestContext({} as typeof request).fieldErrors).toEqual([]);
  });

  it('says which layer runs too early when one reads the operation or the caller before they are known', () => {
    const request = {} as Parameters<typeof requestContext>[0];
    requestContext(request);
    expect(() => matchedOperation(request)).toThrow(
      new Error('A layer that needs the operation runs before the operation match.'),
    );
    expect(() => authenticatedCaller(request)).toThrow(
      new Error('A layer that needs the caller runs before authentication.'),
    );
  });
});
