import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchedOperation } from '../../server/http/request-context.js';
import { bindOperations } from '../../server/operations/bind.js';
import type { OpenApiDocument } from '../../server/spec.js';
import { matchOperation, OperationTable } from '../../server/validation/operation-match.js';
import { requestShapeChecks } from '../../server/validation/request-shape.js';
import { type Listening, listenOnLoopback } from '../support/listen.js';
import {
  call,
  createWorkspace,
  provision,
  rawCall,
  startTestServer,
  type TestServer,
  type Workspace,
} from '../support/server.js';

const ok = {
  '200': { description: 'OK.', headers: { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } } },
};

/** A spec of its own: integers in the path, a header and the query, and templates with regular-expression characters. */
const shapeSpec = {
  openapi: '3.1.0',
  info: { title: 'Shapes', version: '1' },
  servers: [{ url: 'https://shapes.example.com/api/v1' }],
  paths: {
    '/items/{n}': {
      get: {
        operationId: 'getItem',
        parameters: [
          { name: 'n', in: 'path', required: true, schema: { type: 'integer' } },
          { name: 'X-Page', in: 'header', schema: { type: 'integer' } },
          { name: 'tag', in: 'query', schema: { type: 'string' } },
          { name: 'page', in: 'query', schema: { type: ['integer', 'null'] } },
        ],
        responses: ok,
      },
    },
    '/reports.json': { get: { operationId: 'getReports', responses: ok } },
    '/reports/{id}(raw)': { get: { operationId: 'getRawReport', responses: ok } },
  },
  security: [{ bearerAuth: ['management'] }],
  components: {
    schemas: { KeyKind: { type: 'string', enum: ['management'] } },
    responses: {},
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
  },
} as unknown as OpenApiDocument;

/** Its operations as the server binds them; no handler runs. */
const handler = async () => ({});
const shapeOperations = bindOperations(shapeSpec, { getItem: handler, getReports: handler, getRawReport: handler });
const shapeTable = new OperationTable(shapeSpec, shapeOperations);

describe('finding the operation of a request', () => {
  const match = (method: string, path: string) => shapeTable.find(method, path)?.operation.id;

  it('finds an operation by its method and its path below the base path', () => {
    expect(match('GET', '/api/v1/items/7')).toBe('getItem');
    expect(match('POST', '/api/v1/items/7')).toBeUndefined();
    expect(match('GET', '/api/v1/items/7/more')).toBeUndefined();
  });

  it('finds nothing outside the base path, even where the rest of the path would match', () => {
    expect(match('GET', '/api/v2/items/7')).toBeUndefined();
    expect(match('GET', '/xxx/v1/items/7')).toBeUndefined();
    expect(match('GET', '/api/v1x/items/7')).toBeUndefined();
    expect(match('GET', '/items/7')).toBeUndefined();
  });

  it('reads the characters of a template literally, outside its parameters', () => {
    expect(match('GET', '/api/v1/reports.json')).toBe('getReports');
    expect(match('GET', '/api/v1/reportsxjson')).toBeUndefined();
    expect(match('GET', '/api/v1/reports/7(raw)')).toBe('getRawReport');
    expect(match('GET', '/api/v1/reports/7raw')).toBeUndefined();
  });
});

describe('query integers, checked before the validator', () => {
  let listening: Listening;
  let baseUrl = '';

  beforeAll(async () => {
    const app = express();
    app.set('query parser', 'extended');
    const shapeErrors = requestShapeChecks(shapeOperations);
    app.use('/api/v1', matchOperation(shapeTable), (req, res) => {
      const operation = matchedOperation(req);
      res.json({ operation: operation.id, errors: shapeErrors(req, operation) });
    });
    listening = await listenOnLoopback(app);
    baseUrl = listening.baseUrl;
  });

  afterAll(async () => {
    await listening.close();
  });

  async function shape(path: string): Promise<unknown> {
    return (await fetch(`${baseUrl}${path}`)).json();
  }

  it('notes a query integer not written in digits, and leaves the empty value to a nullable one', async () => {
    expect(await shape('/api/v1/items/7?page=1e2&page=&page=-3')).toEqual({
      operation: 'getItem',
      errors: [{ path: '/query/page', message: 'must be an integer written in digits' }],
    });
  });

  it('checks the query parameters only: the names of path and header integers, or a query string, are not', async () => {
    expect(await shape('/api/v1/items/7?n=seven&X-Page=two&tag=abc&page=4')).toEqual({
      operation: 'getItem',
      errors: [],
    });
  });
});

describe('the request shape on the app', () => {
  let server: TestServer;
  let workspace: Workspace;
  let destinationPath = '';

  beforeAll(async () => {
    server = await startTestServer();
    workspace = await createWorkspace(server.store, server.clock.now());
    const destination = await provision.createDestination(
      server.store,
      { workspaceId: workspace.id, type: 'webhook', name: 'Before', config: { url: 'https://hooks.example.com' } },
      server.clock.now(),
    );
    destinationPath = `/api/v1/observability/destinations/${destination.id}`;
  });

  afterAll(async () => {
    expect(server.serverErrors()).toEqual([]);
    await server.close();
  });

  it('takes a body sent in chunks, with no Content-Length, as the body', async () => {
    const body = JSON.stringify({ name: 'Chunked' });
    const answer = await rawCall(
      server,
      `PATCH ${destinationPath} HTTP/1.1\r\nAuthorization: Bearer ${workspace.managementKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked`,
      `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    );
    expect([answer.status, answer.body.data.name]).toEqual([200, 'Chunked']);
  });

  it('refuses a missing body before the rest of the request is checked, on an id of one character too', async () => {
    const answer = await call(server, 'PATCH', '/api/v1/observability/destinations/x', {
      key: workspace.managementKey,
    });
    expect([answer.status, answer.body]).toEqual([
      400,
      {
        error: {
          code: 400,
          message: 'Invalid request: /body is required: send a JSON object',
          metadata: { errors: [{ path: '/body', message: 'is required: send a JSON object' }] },
        },
      },
    ]);
  });

  it('answers a query parameter the operation does not have as unknown, not as a malformed integer', async () => {
    const answer = await call(server, 'GET', '/api/v1/presets/none/versions?slug=other', {
      key: workspace.standardKey,
    });
    expect([answer.status, answer.body]).toEqual([
      400,
      {
        error: {
          code: 400,
          message: "Invalid request: /query/slug Unknown query parameter 'slug'",
          metadata: { errors: [{ path: '/query/slug', message: "Unknown query parameter 'slug'" }] },
        },
      },
    ]);
  });
});
