// GET / points the way: a browser to the docs, any other client to the docs, the contract and the
// operations' prefix, as JSON; with the headers of the server's other answers outside /docs.
import { describe, expect, it } from 'vitest';
import { apiBasePaths } from '../../server/spec.js';
import { call, spec } from '../support/server.js';
import { useTestServer } from '../support/use-test-server.js';

// What a browser asks for when its address bar is given the server's address.
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

const server = useTestServer();

function get(path: string, accept?: string): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, { redirect: 'manual', ...(accept && { headers: { accept } }) });
}

describe('GET /', () => {
  it.each([
    ['no Accept', undefined],
    ['*/*, as curl sends', '*/*'],
    ['JSON', 'application/json'],
    ['JSON before HTML', 'application/json, text/html;q=0.5'],
  ])('answers a client asking for %s with the links as JSON', async (_name, accept) => {
    const response = await get('/', accept);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(await response.json()).toEqual({
      name: spec.info.title,
      version: spec.info.version,
      links: {
        docs: '/docs/',
        openapi_yaml: '/openapi.yaml',
        openapi_json: '/openapi.json',
        api: apiBasePaths(spec)[0],
      },
    });
  });

  it('links to what the server serves: the docs, and the contract in both forms', async () => {
    const { links } = (await (await get('/')).json()) as { links: Record<string, string> };
    const docs = await get(links.docs ?? '');
    await docs.arrayBuffer();
    // Served, or, where they are not built, the answer that says how to build them.
    expect([200, 404]).toContain(docs.status);
    expect(docs.headers.get('content-security-policy')).toContain("script-src 'self'");
    const yaml = await get(links.openapi_yaml ?? '');
    expect([yaml.status, yaml.headers.get('content-type')]).toEqual([200, 'application/yaml']);
    await yaml.arrayBuffer();
    const json = await get(links.openapi_json ?? '');
    expect(await json.json()).toEqual(spec);
  });

  it('sends a browser, which asks for HTML first, on to the docs', async () => {
    for (const accept of [BROWSER_ACCEPT, 'text/html']) {
      const response = await get('/', accept);
      await response.arrayBuffer();
      expect([response.status, response.headers.get('location'), response.headers.get('vary')], accept).toEqual([
        302,
        '/docs/',
        'Accept',
      ]);
    }
  });

  it('carries the security headers of the other answers outside /docs', async () => {
    const health = await get('/healthz');
    await health.arrayBuffer();
    for (const accept of [undefined, BROWSER_ACCEPT]) {
      const root = await get('/', accept);
      await root.arrayBuffer();
      for (const header of [
        'content-security-policy',
        'strict-transport-security',
        'x-content-type-options',
        'x-frame-options',
        'referrer-policy',
        'cross-origin-resource-policy',
      ]) {
        expect(health.headers.get(header), header).not.toBeNull();
        expect(root.headers.get(header), `${header} (Accept: ${accept})`).toBe(health.headers.get(header));
      }
      expect(root.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('answers the other methods as /healthz does', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const [root, health] = [await call(server, method, '/'), await call(server, method, '/healthz')];
      expect({ status: root.status, body: root.body, allow: root.headers.get('allow') }, method).toEqual({
        status: health.status,
        body: health.body,
        allow: health.headers.get('allow'),
      });
      expect(root.status, method).toBe(404);
    }
    const head = await fetch(`${server.baseUrl}/`, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type')]).toEqual([200, 'application/json; charset=utf-8']);
  });
});
