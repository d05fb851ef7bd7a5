// The request's context: its operation is found once, every later layer and the handler read it
// from there, and nothing of it outlives the request.

import { OpenApiContext } from 'express-openapi-validator/dist/framework/openapi.context.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authenticatedCaller, matchedOperation, requestContext } from '../../server/http/request-context.js';
import { specOperations } from '../../server/spec.js';
import { OperationTable } from '../../server/validation/operation-match.js';
import {
  call,
  createTestDestination,
  createWorkspace,
  provision,
  spec,
  startTestServer,
  type TestServer,
  type Workspace,
} from '../support/server.js';

// Every operation table the server makes counts the requests it is asked about.
const serverLookups = vi.spyOn(OperationTable.prototype, 'find');

// The validator's own route lookup reads each route's pair from its context: none is read when it
// takes the server's match.
const validatorLookups = vi.spyOn(OpenApiContext.prototype, 'routePair');

let server: TestServer;
let workspace: Workspace;
let pathValues: Record<string, string>;

beforeAll(async () => {
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
  serverLookups.mockRestore();
  validatorLookups.mockRestore();
});

describe('the operation of a request', () => {
  const operations = specOperations(spec);

  it('reads the operations from the contract', () => {
    expect(operations.length).toBeGreaterThan(0);
  });

  for (const { method, template, operation } of operations) {
    it(`is found once for ${operation.operationId}, by the server's match and the validator's together, whose handler answers with the path parameters it was found with`, async () => {
      const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const value = pathValues[name];
        if (value === undefined) throw new Error(`the test has no value for the path parameter ${name}`);
        return encodeURIComponent(value);
      });
      const body = operation.requestBody ? { name: 'matched once' } : undefined;
      const before = serverLookups.mock.calls.length + validatorLookups.mock.calls.length;
      const response = await call(server, method.toUpperCase(), `/api/v1${path}`, {
        key: workspace.managementKey,
        ...(body && { body }),
      });
      expect(response.status).toBe(200);
      expect(serverLookups.mock.calls.length + validatorLookups.mock.calls.length - before).toBe(1);
      expect(validatorLookups).not.toHaveBeenCalled();
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
    context.emptyBody = true;
    expect(requestContext(request)).toBe(context);
    expect(requestContext({} as typeof request).emptyBody).toBe(false);
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
