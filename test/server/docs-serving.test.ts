import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleFolder } from '../../server/docs-folders.js';
import { docsRouter } from '../../server/http/docs.js';
import { envelopeBounds, errorHandler, notFoundHandler } from '../../server/http/errors.js';
import { securityHeaders } from '../../server/http/security-headers.js';
import { type Listening, listenOnLoopback } from '../support/listen.js';
import { spec, startTestServer } from '../support/server.js';

// Everything the page needs comes from this server, or is inline, or is data built in the page:
// nothing from another origin, and no upgrade-insecure-requests, which would send a page opened over
// plain HTTP under another hostname to https and a blank page.
const DOCS_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "object-src 'none'",
].join(';');

// The console (in the docs' folder of its own) has no inline script or style, and posts no form.
const CONSOLE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join(';');
const CONSOLE_PAGE =
  '<!DOCTYPE html><html><body><main id="console"></main><script src="console.js"></script></body></html>';

const PAGE = '<!DOCTYPE html><html><body><redoc></redoc><script src="./redoc.standalone.js"></script></body></html>';
const RENDERER = 'window.Redoc = {};';

let folder = '';
let listening: Listening;
let baseUrl = '';

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'docs-'));
  const built = join(folder, 'docs');
  mkdirSync(built);
  writeFileSync(join(built, 'index.html'), PAGE);
  writeFileSync(join(built, 'redoc.standalone.js'), RENDERER);
  mkdirSync(join(built, consoleFolder));
  writeFileSync(join(built, consoleFolder, 'index.html'), CONSOLE_PAGE);
  const app = express();
  app.use(securityHeaders());
  app.use('/docs', docsRouter(built));
  app.use('/unbuilt-docs', docsRouter(join(folder, 'not-built')));
  app.use(notFoundHandler);
  app.use(
    errorHandler({
      logger: pino({ level: 'silent' }),
      bounds: envelopeBounds(spec),
    }),
  );
  listening = await listenOnLoopback(app);
  baseUrl = listening.baseUrl;
});

afterAll(async () => {
  await listening.close();
  rmSync(folder, { recursive: true, force: true });
});

async function get(path: string, method = 'GET') {
  const response = await fetch(`${baseUrl}${path}`, { method, redirect: 'manual' });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    policy: response.headers.get('content-security-policy'),
    location: response.headers.get('location'),
    body: await response.text(),
  };
}

describe('the docs at /docs', () => {
  it('serves the page at /docs/ with a policy that loads nothing from elsewhere', async () => {
    expect(await get('/docs/')).toEqual({
      status: 200,
      type: 'text/html; charset=utf-8',
      policy: DOCS_POLICY,
      location: null,
      body: PAGE,
    });
  });

  it('serves the page by its name too, and the renderer beside it, under the same policy', async () => {
    const page = await get('/docs/index.html');
    const renderer = await get('/docs/redoc.standalone.js');
    expect([page.status, page.policy, page.body]).toEqual([200, DOCS_POLICY, PAGE]);
    expect(renderer).toEqual({
      status: 200,
      type: 'text/javascript; charset=utf-8',
      policy: DOCS_POLICY,
      location: null,
      body: RENDERER,
    });
  });

  it('serves the console from its folder under a stricter policy of its own, and nothing else under it', async () => {
    expect(await get(`/docs/${consoleFolder}/`)).toEqual({
      status: 200,
      type: 'text/html; charset=utf-8',
      policy: CONSOLE_POLICY,
      location: null,
      body: CONSOLE_PAGE,
    });
    expect((await get(`/docs/${consoleFolder}/index.html`)).policy).toBe(CONSOLE_POLICY);
    // A file of the same name outside the console's folder keeps the reference's policy.
    expect((await get(`/docs/${consoleFolder}.html`)).policy).toBe(DOCS_POLICY);
  });

  it('redirects /docs to /docs/, where the page and its relative links resolve', async () => {
    const answer = await get('/docs');
    expect([answer.status, answer.location]).toEqual([301, '/docs/']);
  });

  it('leaves a file it does not have to the app, which answers 404 in the error envelope', async () => {
    for (const [method, path] of [
      ['GET', '/docs/missing.js'],
      ['POST', '/docs/index.html'],
    ] as const) {
      const answer = await get(path, method);
      expect({ ...answer, path }).toEqual({
        path,
        status: 404,
        type: 'application/json; charset=utf-8',
        policy: DOCS_POLICY,
        location: null,
        body: JSON.stringify({ error: { code: 404, message: 'Not found.', metadata: null } }),
      });
    }
  });

  it('answers 404 saying how to build the docs when they are not built', async () => {
    expect(await get('/unbuilt-docs/')).toEqual({
      status: 404,
      type: 'application/json; charset=utf-8',
      policy: DOCS_POLICY,
      location: null,
      body: JSON.stringify({
        error: { code: 404, message: 'The docs are not built: run `npm run docs`.', metadata: null },
      }),
    });
  });
});

describe('the docs served by the app', () => {
  it('have the docs policy, not the API one, whether or not they are built', async () => {
    const app = await startTestServer();
    try {
      const answer = await fetch(`${app.baseUrl}/docs/`);
      await answer.arrayBuffer();
      expect(answer.headers.get('content-security-policy')).toBe(DOCS_POLICY);
    } finally {
      await app.close();
    }
  });
});
