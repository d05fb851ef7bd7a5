// The warm-up before the server takes traffic: one request per operation of the spec, with its
// path examples and first body example, on a private loopback port closed afterwards; and, on the
// real app, requests that neither the request log nor the failed-authentication throttle count.
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { connect } from 'node:net';
import express from 'express';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { isWarmUpRequest } from '../../server/http/request-context.js';
import { warmUp } from '../../server/http/warm-up.js';
import { UNREACHABLE_RATE_LIMIT } from '../../server/rate-limit/rate-limit.js';
import type { OpenApiDocument } from '../../server/spec.js';
import { openStore } from '../../server/store/store.js';
import { listenOnLoopback } from '../support/listen.js';
import { spec } from '../support/server.js';

const ok = { '200': { description: 'OK.' } };
const thingId = { name: 'thingId', in: 'path', required: true, schema: { type: 'string' }, example: 'th 1' };

/** A spec of its own, with each case of path parameter and request body the warm-up meets. */
const warmUpSpec = {
  openapi: '3.1.0',
  info: { title: 'Warm-up', version: '1' },
  servers: [{ url: '/api' }],
  paths: {
    '/things/{thingId}': {
      get: { operationId: 'getThing', parameters: [thingId], responses: ok },
      patch: {
        operationId: 'updateThing',
        parameters: [thingId],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object' },
              examples: { rename: { value: { name: 'renamed' } }, clear: { value: {} } },
            },
          },
        },
        responses: ok,
      },
      put: {
        operationId: 'replaceThing',
        parameters: [thingId],
        requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
        responses: ok,
      },
    },
    '/things/{thingId}/tags/{tag}': {
      delete: {
        operationId: 'untagThing',
        parameters: [
          { name: 'thingId', in: 'path', required: true, schema: { type: 'integer' }, example: 42 },
          { name: 'tag', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'dryRun', in: 'query', schema: { type: 'boolean' }, example: true },
        ],
        responses: ok,
      },
    },
    '/things': {
      post: {
        operationId: 'createThing',
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object' },
              examples: { external: { externalValue: 'https://example.com/thing.json' } },
            },
          },
        },
        responses: ok,
      },
    },
  },
  components: { schemas: {}, responses: {}, securitySchemes: {} },
} as unknown as OpenApiDocument;

interface Received {
  method: string;
  url: string;
  contentType: string | null;
  body: string;
  localAddress: string | undefined;
  warmUp: boolean;
}

/** An app that answers 401 to everything, as the real one does to a request without a key, and records what it got. */
function recordingApp() {
  const received: Received[] = [];
  const sockets: Socket[] = [];
  let localPort = 0;
  const app = express();
  app.use((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({
        method: req.method,
        url: req.originalUrl,
        contentType: req.headers['content-type'] ?? null,
        body,
        localAddress: req.socket.localAddress,
        warmUp: isWarmUpRequest(req),
      });
      sockets.push(req.socket);
      localPort = req.socket.localPort ?? 0;
      res.status(401).json({});
    });
  });
  return { app, received, sockets, port: () => localPort };
}

function connectionRefused(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

describe('warm-up', () => {
  it('sends one request per operation, in the order of the spec, with the path examples and the first body example, on loopback', async () => {
    const { app, received } = recordingApp();
    await warmUp(app, warmUpSpec);
    const onLoopback = { localAddress: '127.0.0.1', warmUp: true };
    expect(received).toEqual([
      { method: 'GET', url: '/api/things/th%201', contentType: null, body: '', ...onLoopback },
      { method: 'PUT', url: '/api/things/th%201', contentType: null, body: '', ...onLoopback },
      {
        method: 'PATCH',
        url: '/api/things/th%201',
        contentType: 'application/json',
        body: '{"name":"renamed"}',
        ...onLoopback,
      },
      { method: 'DELETE', url: '/api/things/42/tags/tag', contentType: null, body: '', ...onLoopback },
      { method: 'POST', url: '/api/things', contentType: 'application/json', body: '{}', ...onLoopback },
    ]);
  });

  it('closes its port and its connections when done', async () => {
    const { app, sockets, port } = recordingApp();
    await warmUp(app, warmUpSpec);
    expect(sockets.map((socket) => socket.destroyed)).toEqual([true, true, true, true, true]);
    expect(await connectionRefused(port())).toBe('ECONNREFUSED');
  });

  it('leaves requests that come afterwards, on another port, for traffic', async () => {
    const { app, received } = recordingApp();
    await warmUp(app, warmUpSpec);
    const listening = await listenOnLoopback(app);
    try {
      await (await fetch(`${listening.baseUrl}/api/things`)).arrayBuffer();
      expect(received.map((r) => r.warmUp)).toEqual([true, true, true, true, true, false]);
    } finally {
      await listening.close();
    }
  });

  it('on the real app, neither logs its requests nor counts them as failed authentications', async () => {
    const store = await openStore('sqlite::memory:', createSecretBox(randomBytes(32)));
    const logs: { msg: string }[] = [];
    const app = createApp({
      store,
      clock: () => new Date('2026-11-18T12:00:00.000Z'),
      logger: pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line)) }),
      spec,
      validateResponses: false,
      rateLimit: UNREACHABLE_RATE_LIMIT,
      // Two failed authentications from one address, and the third is refused.
      authFailureLimit: { windowMs: 60_000, limit: 2 },
    });
    await warmUp(app, spec);
    expect(logs).toEqual([]);
    const listening = await listenOnLoopback(app);
    try {
      const url = `${listening.baseUrl}/api/v1/presets/none/versions`;
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await fetch(url)).status);
      expect(statuses).toEqual([401, 401, 429]);
      expect(logs.map((line) => line.msg)).toEqual(['GET 401', 'GET 401', 'GET 429']);
    } finally {
      await listening.close();
      await store.close();
    }
  });
});
