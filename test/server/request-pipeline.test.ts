// The request path is one list of named layers (server/request-pipeline.ts): createApp mounts it
// whole, and the benchmark's ladder mounts prefixes of it, so that each rung measures the server's
// own layers. A prefix mounted alone does what its layers do; a layer for every request may not
// follow one of the API.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LADDER } from '../../bench/shared/ladder-rungs.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { systemClock } from '../../server/domain/time.js';
import { warmUp } from '../../server/http/warm-up.js';
import { bindOperations } from '../../server/operations/bind.js';
import { operationHandlers } from '../../server/operations/handlers.js';
import { UNREACHABLE_RATE_LIMIT } from '../../server/rate-limit/rate-limit.js';
import { type Layer, mountPipeline, requestPipeline } from '../../server/request-pipeline.js';
import { createSpecAjv, operationPath, type SpecOperation, specOperations } from '../../server/spec.js';
import { openStore, type Store } from '../../server/store/store.js';
import { destinationTypes, spec } from '../support/server.js';

let store: Store;
let layers: Layer[];

beforeAll(async () => {
  store = await openStore('sqlite::memory:', createSecretBox(Buffer.alloc(32, 1)));
  layers = requestPipeline(
    {
      store,
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      spec,
      validateResponses: false,
      rateLimit: UNREACHABLE_RATE_LIMIT,
      authFailureLimit: UNREACHABLE_RATE_LIMIT,
      probePaths: [],
    },
    bindOperations(spec, operationHandlers),
    { store, clock: systemClock, contractVersion: spec.info.version, destinationTypes },
    createSpecAjv(spec),
  );
});
afterAll(async () => {
  await store.close();
});

/** The operation's path with each path parameter's example from the spec. */
function examplePath({ operation, parameters }: SpecOperation): string {
  const values = parameters.filter((p) => p.in === 'path').map((p) => [p.name, String(p.example ?? p.name)]);
  return operationPath(spec, operation.operationId, Object.fromEntries(values));
}

/** The status of a GET of the first operation, through `prefix` and then a constant 200. */
async function statusThrough(prefix: readonly Layer[]): Promise<number> {
  const app = express();
  mountPipeline(app, spec, prefix);
  app.use((_req, res) => {
    res.json({});
  });
  app.use(((err, _req, res, _next) => {
    res.status((err as { status?: number }).status ?? 500).json({});
  }) as express.ErrorRequestHandler);
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const first = specOperations(spec)[0];
    if (!first) throw new Error('the spec has no operation');
    const path = examplePath(first);
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    return response.status;
  } finally {
    server.close();
  }
}

describe('the request pipeline', () => {
  it('lists the checks in the order openapi.yaml states: the caller admitted before the request is read', () => {
    const names = layers.map((layer) => layer.name);
    const at = (name: string) => names.indexOf(name);
    expect(at('operation match')).toBeLessThan(at('authentication'));
    expect(at('key kind')).toBeLessThan(at('content type'));
    expect(at('json body')).toBeLessThan(at('request checks'));
    expect(names.at(-1)).toBe('operations');
  });

  it('mounted up to the operation match answers what follows it; up to authentication, refuses a request without a key', async () => {
    const upTo = (name: string) => layers.slice(0, layers.findIndex((layer) => layer.name === name) + 1);
    expect(await statusThrough(upTo('operation match'))).toBe(200);
    expect(await statusThrough(upTo('authentication'))).toBe(401);
  });

  it('refuses a layer for every request after a layer of the API', () => {
    const [first, ...rest] = layers;
    if (!first) throw new Error('no layers');
    expect(() => mountPipeline(express(), spec, [...rest, first])).toThrow(
      /request log, for every request, comes after/,
    );
  });
});

describe('mounting the pipeline', () => {
  /** A layer of the API that notes its name when a request passes it. */
  const noting =
    (seen: string[]) =>
    (name: string): Layer => ({
      name,
      scope: 'api',
      handlers: [
        (_req, _res, next) => {
          seen.push(name);
          next();
        },
      ],
    });
  const realLayers = (...names: string[]) =>
    names.map((name) => {
      const found = layers.find((layer) => layer.name === name);
      if (!found) throw new Error(`no layer ${name}`);
      return found;
    });

  it('runs each layer once per request, in the order of the list', async () => {
    const seen: string[] = [];
    const note = noting(seen);
    await statusThrough([
      ...realLayers('operation match'),
      note('authentication'),
      note('content type'),
      note('json body'),
      note('request checks'),
    ]);
    expect(seen).toEqual(['authentication', 'content type', 'json body', 'request checks']);
  });

  it('hands a request to its handler in a later turn of the event loop than its checks', async () => {
    const seen: string[] = [];
    const app = express();
    mountPipeline(app, spec, [
      ...realLayers('operation match'),
      {
        name: 'request checks',
        scope: 'api',
        handlers: [
          (_req, _res, next) => {
            setImmediate(() => seen.push('the turn of the checks ended'));
            next();
          },
        ],
      },
      ...realLayers('next turn'),
      noting(seen)('operations'),
    ]);
    app.use((_req, res) => {
      res.json({});
    });
    const listening = app.listen(0, '127.0.0.1');
    await once(listening, 'listening');
    try {
      const first = specOperations(spec)[0];
      if (!first) throw new Error('the spec has no operation');
      await fetch(`http://127.0.0.1:${(listening.address() as AddressInfo).port}${examplePath(first)}`);
    } finally {
      listening.close();
    }
    expect(seen).toEqual(['the turn of the checks ended', 'operations']);
  });

  it("takes the server's own requests at start past the caller's admission, through the checks, and ends them before the operations", async () => {
    const seen: string[] = [];
    const note = noting(seen);
    const app = express();
    mountPipeline(app, spec, [
      ...realLayers('operation match', 'authentication', 'rate limit', 'key kind'),
      note('content type'),
      ...realLayers('warm-up end'),
      note('operations'),
    ]);
    await warmUp(app, spec);
    expect(seen).toEqual(specOperations(spec).map(() => 'content type'));
  });
});

describe("the benchmark's ladder", () => {
  it("climbs the server's own layers in their order, to the last check before the handler", () => {
    const names = layers.map((layer) => layer.name);
    const positions = LADDER.flatMap((rung) => (rung.upTo ? [names.indexOf(rung.upTo)] : []));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(names.slice(Math.max(...positions) + 1)).toEqual(['warm-up end', 'next turn', 'operations']);
  });

  it('measures every rung against a rung before it', () => {
    const ids = LADDER.map((rung) => rung.id);
    for (const [index, rung] of LADDER.entries())
      if (rung.base !== undefined) expect(ids.indexOf(rung.base)).toBeLessThan(index);
  });
});
