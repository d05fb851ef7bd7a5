// express-openapi-validator 5.6.2 compiles a path-to-regexp matcher for every route it scans, on
// every request. patches/ applies the route-matcher cache of its upstream pull request #1217 at
// install; this fails if the patch is missing (drop both once a release includes the fix).
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { validatorOptions } from '../../server/app.js';
import { projectRoot } from '../../server/project-root.js';
import { spec } from '../support/spec.js';

const require = createRequire(import.meta.url);
type PathToRegexp = { pathToRegexp: (...args: unknown[]) => unknown };

/** Counts the matchers compiled through the path-to-regexp that a copy of the validator loads. */
function countCompilations(validatorPackage: string) {
  const pathToRegexpModule = require(
    require.resolve('path-to-regexp', { paths: [require.resolve(validatorPackage)] }),
  ) as PathToRegexp;
  const original = pathToRegexpModule.pathToRegexp;
  const counter = { calls: 0, restore: () => (pathToRegexpModule.pathToRegexp = original) };
  pathToRegexpModule.pathToRegexp = (...args: unknown[]) => {
    counter.calls += 1;
    return original(...args);
  };
  return counter;
}

/** Compilations while a validated app answers `requests` GETs on the spec's last route. */
async function compilationsFor(validatorPackage: string, requests: number): Promise<number> {
  const { middleware } = require(validatorPackage) as typeof import('express-openapi-validator');
  const app = express();
  app.set('query parser', 'extended');
  app.use(middleware(validatorOptions(spec, false)));
  app.use((_req, res) => void res.json({ data: [], pagination: { offset: 0, limit: 20, total: 0 } }));
  app.use((err: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(err.status ?? 500).json({ message: String(err) });
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  // The first request loads the spec and compiles the validator's schemas; counted from the second.
  await (await fetch(`http://127.0.0.1:${port}/api/v1/presets/first/versions`)).arrayBuffer();
  const counter = countCompilations(validatorPackage);
  try {
    for (let i = 0; i < requests; i++) {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/presets/preset-${i}/versions?limit=5`);
      await response.arrayBuffer();
      expect(response.status).toBe(200);
    }
    return counter.calls;
  } finally {
    counter.restore();
    server.close();
  }
}

describe('the route-matcher cache patched into express-openapi-validator', () => {
  const routes = Object.keys(spec.paths).length;

  it('compiles no matcher per request once each route is compiled', async () => {
    expect(await compilationsFor('express-openapi-validator', 20)).toBeLessThanOrEqual(routes);
  });

  it('counts what it claims: the released copy, kept unpatched for the benchmark, compiles on every request', async () => {
    // Every request scans the routes up to the last one, compiling each: at least one per request.
    expect(await compilationsFor('express-openapi-validator-released', 20)).toBeGreaterThanOrEqual(20);
  });

  it('is applied at install from patches/, for the version it was written for', () => {
    const manifest = JSON.parse(readFileSync(`${projectRoot}/package.json`, 'utf8')) as {
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(manifest.scripts.postinstall).toBe('patch-package --error-on-fail');
    const installed = require('express-openapi-validator/package.json') as { version: string };
    expect(installed.version).toBe(manifest.dependencies['express-openapi-validator']);
    expect(readFileSync(`${projectRoot}/patches/express-openapi-validator+${installed.version}.patch`, 'utf8')).toMatch(
      /routeMatcherCache/,
    );
  });
});
