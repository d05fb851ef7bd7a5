// express-openapi-validator 5.6.2, patched at install from patches/ (drop each patch once a release
// includes its fix; notes/patched-dependencies.md):
// 1. it compiles a path-to-regexp matcher for every route it scans, on every request: the
//    route-matcher cache of upstream pull request #1217;
// 2. its request and response validators are cached by the request's Content-Type with every
//    parameter in it, so a client that varies a parameter makes it build and keep new validators
//    on every request: keyed on the spec's media type instead (the report is beside the patch).
// 3. it matches every request's path against the spec's routes itself: it takes the route the
//    application has matched instead, when given a `routeOf` option.
// Each test counts what the patched copy does and what the released copy, kept unpatched for the
// benchmark, does, so that it shows the fix and that it counts the right thing.
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/project-root.js';
import { validatorOptions } from '../../server/validation/validator.js';
import { spec } from '../support/spec.js';

const require = createRequire(import.meta.url);
type Validator = 'express-openapi-validator' | 'express-openapi-validator-released';

/** Counts the calls of a function of a module, as loaded by a copy of the validator. */
function countCalls(validator: Validator, module: string, owner: (loaded: never) => object, name: string) {
  const loaded = require(require.resolve(module, { paths: [require.resolve(validator)] })) as never;
  const target = owner(loaded) as Record<string, (...args: unknown[]) => unknown>;
  const original = target[name] as (...args: unknown[]) => unknown;
  const counter = { calls: 0, restore: () => (target[name] = original) };
  target[name] = function (this: unknown, ...args: unknown[]) {
    counter.calls += 1;
    return original.apply(this, args);
  };
  return counter;
}

/** An app behind a copy of the validator, answering every request that passes it with the same response. */
async function validatedApp(validator: Validator, validateResponses: boolean, status: number, body: unknown) {
  const { middleware } = require(validator) as typeof import('express-openapi-validator');
  const app = express();
  app.set('query parser', 'extended');
  app.use(express.json({ type: () => true }));
  app.use(middleware(validatorOptions(spec, validateResponses)));
  app.use((_req, res) => void res.status(status).json(body));
  app.use((err: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(err.status ?? 500).json({ message: String(err) });
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Compilations while a validated app answers `requests` GETs on the spec's last route. */
async function compilationsFor(validator: Validator, requests: number): Promise<number> {
  const app = await validatedApp(validator, false, 200, { data: [] });
  // The first request loads the spec and compiles the validator's schemas; counted from the second.
  await (await fetch(`${app.base}/api/v1/presets/first/versions`)).arrayBuffer();
  const counter = countCalls(validator, 'path-to-regexp', (m: object) => m, 'pathToRegexp');
  try {
    for (let i = 0; i < requests; i++) {
      const response = await fetch(`${app.base}/api/v1/presets/preset-${i}/versions?limit=5`);
      await response.arrayBuffer();
      expect(response.status).toBe(200);
    }
    return counter.calls;
  } finally {
    counter.restore();
    await app.close();
  }
}

/** Request and response validators built while PATCH and GET requests vary a Content-Type parameter. */
async function validatorsBuiltFor(validator: Validator, requests: number) {
  // A 404 in the envelope: a response both operations document, so that it passes response validation.
  const app = await validatedApp(validator, true, 404, { error: { code: 404, message: 'Not found.', metadata: null } });
  const middlewares = `${dirname(require.resolve(`${validator}/package.json`))}/dist/middlewares`;
  const requestValidators = countCalls(
    validator,
    `${middlewares}/openapi.request.validator.js`,
    (m: { RequestValidator: { prototype: object } }) => m.RequestValidator.prototype,
    'buildMiddleware',
  );
  const responseValidators = countCalls(
    validator,
    `${middlewares}/openapi.response.validator.js`,
    (m: { ResponseValidator: { prototype: object } }) => m.ResponseValidator.prototype,
    'buildValidators',
  );
  const statuses = new Set<number>();
  try {
    for (let i = 0; i < requests; i++) {
      for (const [method, path] of [
        ['PATCH', '/api/v1/observability/destinations/7019b9f2-c5e6-4f46-873e-55a17bb095a3'],
        ['GET', '/api/v1/presets/first/versions'],
      ] as const) {
        const response = await fetch(`${app.base}${path}`, {
          method,
          headers: { 'content-type': `application/json; charset=utf-8; p=${i}` },
          ...(method === 'PATCH' && { body: '{"sampling_rate":0.5}' }),
        });
        await response.arrayBuffer();
        statuses.add(response.status);
      }
    }
    return { requestValidators: requestValidators.calls, responseValidators: responseValidators.calls, statuses };
  } finally {
    requestValidators.restore();
    responseValidators.restore();
    await app.close();
  }
}

describe('the route-matcher cache patched into express-openapi-validator', () => {
  const routes = Object.keys(spec.paths).length;

  it('compiles no matcher per request once each route is compiled', async () => {
    expect(await compilationsFor('express-openapi-validator', 20)).toBeLessThanOrEqual(routes);
  });

  it('counts what it claims: the released copy compiles on every request', async () => {
    // Every request scans the routes up to the last one, compiling each: at least one per request.
    expect(await compilationsFor('express-openapi-validator-released', 20)).toBeGreaterThanOrEqual(20);
  });
});

describe('validator caches keyed on the media type of the spec, not on the Content-Type as sent', () => {
  it('builds one request and one response validator per operation, whatever parameters the requests send', async () => {
    const built = await validatorsBuiltFor('express-openapi-validator', 20);
    // Every request passed both validators: they were really used.
    expect(built).toEqual({ requestValidators: 2, responseValidators: 2, statuses: new Set([404]) });
  });

  it('counts what it claims: the released copy builds both anew for every new parameter value', async () => {
    const built = await validatorsBuiltFor('express-openapi-validator-released', 20);
    expect(built.requestValidators).toBeGreaterThanOrEqual(40);
    expect(built.responseValidators).toBeGreaterThanOrEqual(40);
  });
});

describe('the patches', () => {
  it('are applied at install from patches/, in order, for the version they were written for', () => {
    const manifest = require(`${projectRoot}/package.json`) as {
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(manifest.scripts.postinstall).toBe('patch-package --error-on-fail');
    const installed = require('express-openapi-validator/package.json') as { version: string };
    expect(installed.version).toBe(manifest.dependencies['express-openapi-validator']);
    const patches = readdirSync(`${projectRoot}/patches`).filter(
      (name) => name.startsWith('express-openapi-validator+') && name.endsWith('.patch'),
    );
    expect(patches.sort()).toEqual([
      `express-openapi-validator+${installed.version}+001+route-matcher-cache.patch`,
      `express-openapi-validator+${installed.version}+002+cache-keys-without-client-content-type.patch`,
      `express-openapi-validator+${installed.version}+003+route-from-the-app.patch`,
    ]);
  });
});

describe('the route handed over by the application (routeOf)', () => {
  /** The status and the routes looked up of a GET of a path of no route, handed the preset versions' route. */
  async function handedOver(validator: Validator) {
    const { middleware } = require(validator) as typeof import('express-openapi-validator');
    const app = express();
    app.set('query parser', 'extended');
    const routeOf = () => ({
      openApiRoute: '/api/v1/presets/{slug}/versions',
      method: 'GET',
      pathParams: { slug: 'first' },
    });
    app.use(middleware({ ...validatorOptions(spec, false), routeOf } as Parameters<typeof middleware>[0]));
    app.use((_req, res) => void res.json({}));
    app.use((err: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(err.status ?? 500).json({ message: String(err) });
    });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await (await fetch(`${base}/api/v1/presets/first/versions`)).arrayBuffer();
    const lookups = countCalls(
      validator,
      `${dirname(require.resolve(`${validator}/package.json`))}/dist/framework/openapi.context.js`,
      (m: { OpenApiContext: { prototype: object } }) => m.OpenApiContext.prototype,
      'routePair',
    );
    try {
      const response = await fetch(`${base}/api/v1/elsewhere?limit=abc`);
      await response.arrayBuffer();
      return { status: response.status, lookups: lookups.calls };
    } finally {
      lookups.restore();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('is the route the patched copy checks the request against, with no lookup of its own; the released copy looks up the path', async () => {
    // The handed route's limit must be an integer: 400, where the path alone is of no route.
    expect(await handedOver('express-openapi-validator')).toEqual({ status: 400, lookups: 0 });
    const released = await handedOver('express-openapi-validator-released');
    expect(released.status).toBe(404);
    expect(released.lookups).toBeGreaterThan(0);
  });
});
