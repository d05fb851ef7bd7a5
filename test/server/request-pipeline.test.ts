// The request path is one list of named layers (server/request-pipeline.ts): the app mounts it
// whole, the benchmark's ladder mounts prefixes of it; and the operation of a request is found
// once, by one matcher, with no route per operation behind it.
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { LADDER, type Rung, rungLayers } from '../../bench/ladder-rungs.js';
import { createApp } from '../../server/app.js';
import { createSecretBox } from '../../server/domain/secrets.js';
import { createMetrics } from '../../server/http/metrics.js';
import { UNREACHABLE_RATE_LIMIT } from '../../server/http/rate-limit.js';
import { bindOperations } from '../../server/operations/bind.js';
import { operationHandlers } from '../../server/operations/index.js';
import { createDestination } from '../../server/provisioning/index.js';
import { type PipelineDeps, requestPipeline } from '../../server/request-pipeline.js';
import { apiBasePaths, createSpecAjv, operationPath, specOperations } from '../../server/spec.js';
import { openStore, type Store } from '../../server/store/index.js';
import { type Listening, listenOnLoopback } from '../support/listen.js';
import { createWorkspace, destinationTypes, spec, type Workspace } from '../support/server.js';

// Every matcher the server makes counts the requests it is asked about.
const matcherCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../server/http/operation-matcher.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../server/http/operation-matcher.js')>();
  const counted: typeof original.operationMatcher = (document, operations) => {
    const match = original.operationMatcher(document, operations);
    return (method, path) => {
      matcherCalls.count++;
      return match(method, path);
    };
  };
  return { ...original, operationMatcher: counted };
});

let store: Store;

beforeAll(async () => {
  store = await openStore('sqlite::memory:', createSecretBox(randomBytes(32)));
});

afterAll(async () => {
  await store.close();
});

function deps(extra: Partial<PipelineDeps> = {}): PipelineDeps {
  return {
    store,
    clock: () => new Date('2026-11-18T12:00:00.000Z'),
    logger: pino({ level: 'silent' }),
    spec,
    validateResponses: true,
    rateLimit: UNREACHABLE_RATE_LIMIT,
    authFailureLimit: UNREACHABLE_RATE_LIMIT,
    ...extra,
  };
}

const namesOf = (layers: readonly { name: string }[]) => layers.map((layer) => layer.name);

describe("the benchmark's ladder", () => {
  const operations = bindOperations(spec, operationHandlers);
  // The server's list as createApp builds it, without or with METRICS_PORT (the spec compiled anew for each).
  const layersOf = (metrics: boolean) =>
    requestPipeline(deps(metrics ? { metrics: createMetrics(spec) } : {}), operations, createSpecAjv(spec));
  const listOf = (rung: Rung) => namesOf(layersOf(rung.metrics === true));
  const rungNames = (rung: Rung) => namesOf(rungLayers(rung, layersOf(rung.metrics === true)));

  it.each(LADDER.map((rung) => [rung.id, rung] as const))(
    "mounts a prefix of the server's own layers on rung %s",
    (_id, rung) => {
      const names = rungNames(rung);
      expect(names).toEqual(listOf(rung).slice(0, names.length));
      if (rung.upTo !== undefined) expect(names.at(-1)).toBe(rung.upTo);
    },
  );

  it('climbs each rung from a shorter prefix, up to the whole list, with and without the metrics', () => {
    for (const rung of LADDER) {
      const base = LADDER.find((other) => other.id === rung.base);
      if (!base) continue;
      const longer = rung.releasedValidator || base.releasedValidator ? 0 : 1;
      expect(rungNames(rung).length, rung.id).toBeGreaterThanOrEqual(rungNames(base).length + longer);
    }
    // The released validator's rung is a side branch: no rung climbs from it.
    const tops = LADDER.filter((rung) => !rung.releasedValidator && !LADDER.some((other) => other.base === rung.id));
    expect(tops.map((rung) => rungNames(rung))).toEqual([namesOf(layersOf(true))]);
    expect(LADDER.map((rung) => rungNames(rung))).toContainEqual(namesOf(layersOf(false)));
  });
});

describe('finding the operation of a request', () => {
  let listening: Listening;
  let workspace: Workspace;
  let requests: [string, string][] = [];

  beforeAll(async () => {
    workspace = await createWorkspace(store, new Date('2026-11-18T12:00:00.000Z'));
    const destination = await createDestination(
      store,
      destinationTypes,
      { workspaceId: workspace.id, type: 'webhook', name: 'Matched', config: { url: 'https://hooks.example.com' } },
      new Date('2026-11-18T12:00:00.000Z'),
    );
    const examples = { hash: workspace.standardKeyHash, id: destination.id, slug: 'none' };
    requests = specOperations(spec).map(({ method, operation }) => [
      method.toUpperCase(),
      operationPath(spec, operation.operationId ?? '', examples),
    ]);
    listening = await listenOnLoopback(createApp(deps()));
  });

  afterAll(async () => {
    await listening.close();
  });

  beforeEach(() => {
    matcherCalls.count = 0;
  });

  it('matches each request once, whatever its answer', async () => {
    const [first] = requests;
    const calls = [
      ...requests.map(([method, path]) => [method, path, workspace.managementKey] as const),
      ...requests.map(([method, path]) => [method, path, undefined] as const),
      ['HEAD', first?.[1] ?? '', workspace.managementKey] as const,
      ['GET', '/api/v1/no-such-thing', workspace.managementKey] as const,
    ];
    for (const [method, path, key] of calls) {
      const before = matcherCalls.count;
      const response = await fetch(`${listening.baseUrl}${path}`, {
        method,
        headers: {
          ...(key !== undefined && { authorization: `Bearer ${key}` }),
          ...(method === 'PATCH' && { 'content-type': 'application/json' }),
        },
        ...(method === 'PATCH' && { body: JSON.stringify({ name: 'Renamed' }) }),
      });
      await response.arrayBuffer();
      expect([method, path, key !== undefined, matcherCalls.count - before]).toEqual([
        method,
        path,
        key !== undefined,
        1,
      ]);
    }
  });

  it('has no route per operation behind the one match', () => {
    const app = createApp(deps());
    type Layer = { route?: unknown; handle: { stack?: Layer[] }; match(path: string): boolean };
    const routesBelow = (stack: Layer[]): number =>
      stack.reduce((count, layer) => count + (layer.route ? 1 : 0) + routesBelow(layer.handle.stack ?? []), 0);
    const apiRouters = (app.router as unknown as { stack: Layer[] }).stack.filter(
      (layer) => layer.handle.stack && apiBasePaths(spec).some((base) => layer.match(`${base}/`)),
    );
    expect(apiRouters.length).toBe(apiBasePaths(spec).length);
    expect(apiRouters.map((layer) => routesBelow(layer.handle.stack ?? []))).toEqual(apiRouters.map(() => 0));
  });
});
