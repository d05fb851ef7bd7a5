// Which check a sampled request's span names as having refused it (`api.refused_by`), and the
// validator's time on a refused request (server/telemetry/request-span.ts, in the test's own process).
import { describe, expect, it } from 'vitest';
import { createTestDestination } from '../support/server.js';
import {
  callerTrace,
  pathOf,
  STATUS_ERROR,
  STATUS_UNSET,
  send,
  serverSpanOf,
  spansOf,
  tracedServer,
  useTracedServers,
  withPageOfVersions,
} from '../support/traced-test-server.js';

useTracedServers();

describe('a sampled request refused', () => {
  it('names the check that refused it, and is an error only for a 5xx', async () => {
    const traced = await tracedServer(
      { OTEL_TRACES_SAMPLER: 'always_on' },
      {
        store: withPageOfVersions(async () => {
          throw new Error('the store failed');
        }),
      },
    );
    const { workspace } = traced;
    const destinationPath = await createTestDestination(traced.server, workspace);
    const destinationId = destinationPath.split('/').pop() ?? '';
    const keyPath = pathOf('getKey', { hash: workspace.standardKeyHash });
    const cases: {
      method: string;
      path: string;
      key?: string;
      body?: unknown;
      rawBody?: string;
      contentType?: string;
      status: number;
      refusedBy?: string;
      route: boolean;
    }[] = [
      { method: 'GET', path: keyPath, status: 401, refusedBy: 'authentication', route: true },
      { method: 'GET', path: keyPath, key: workspace.standardKey, status: 403, refusedBy: 'key kind', route: true },
      {
        method: 'PATCH',
        path: pathOf('updateObservabilityDestination', { id: destinationId }),
        key: workspace.managementKey,
        body: { sampling_rate: 'all of them' },
        status: 400,
        refusedBy: 'validation',
        route: true,
      },
      {
        method: 'PATCH',
        path: pathOf('updateObservabilityDestination', { id: destinationId }),
        key: workspace.managementKey,
        rawBody: 'sampling_rate=1',
        contentType: 'application/x-www-form-urlencoded',
        status: 415,
        refusedBy: 'validation',
        route: true,
      },
      {
        method: 'PATCH',
        path: pathOf('updateObservabilityDestination', { id: destinationId }),
        key: workspace.managementKey,
        body: { name: 'x'.repeat(101 * 1024) },
        status: 413,
        refusedBy: 'validation',
        route: true,
      },
      { method: 'GET', path: '/api/v1/no-such-thing', key: workspace.managementKey, status: 404, route: false },
      { method: 'DELETE', path: keyPath, key: workspace.managementKey, status: 405, route: false },
      {
        method: 'GET',
        path: pathOf('listPresetVersions', { slug: 'demo' }),
        key: workspace.managementKey,
        status: 500,
        route: true,
      },
    ];
    for (const sent of cases) {
      const caller = callerTrace();
      const response = await send(traced, sent.method, sent.path, {
        traceparent: caller.traceparent,
        ...(sent.key !== undefined && { key: sent.key }),
        ...(sent.body !== undefined && { body: sent.body }),
        ...(sent.rawBody !== undefined && { rawBody: sent.rawBody }),
        ...(sent.contentType !== undefined && { contentType: sent.contentType }),
      });
      expect(response.status, `${sent.method} ${sent.path}`).toBe(sent.status);
      const server = serverSpanOf(await spansOf(traced.receiver, caller.traceId));
      const what = `${sent.method} ${sent.path}: ${JSON.stringify(server)}`;
      expect(server.attributes['http.response.status_code'], what).toBe(sent.status);
      const refusedBy = sent.refusedBy ?? (sent.route ? undefined : 'operation match');
      expect(server.attributes['api.refused_by'], what).toBe(refusedBy);
      expect(server.statusCode, what).toBe(sent.status >= 500 ? STATUS_ERROR : STATUS_UNSET);
      if (sent.route) expect(server.name, what).toMatch(new RegExp(`^${sent.method} /api/v1/`));
      else {
        expect(server.name, what).toBe(sent.method);
        expect(server.attributes, what).not.toHaveProperty('http.route');
        expect(server.attributes, what).not.toHaveProperty('api.operation_id');
      }
      // The workspace is known once the key is: not for a request refused before or by authentication.
      expect(server.attributes['api.workspace_id'], what).toBe(
        sent.status === 401 || !sent.route ? undefined : workspace.id,
      );
    }
  });

  it('times the validator when the validator refuses the request', async () => {
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'always_on' });
    const { workspace } = traced;
    const destinationPath = await createTestDestination(traced.server, workspace);
    const caller = callerTrace();
    const response = await send(traced, 'PATCH', destinationPath, {
      key: workspace.managementKey,
      traceparent: caller.traceparent,
      body: { sampling_rate: 7 },
    });
    expect(response.status).toBe(400);
    const server = serverSpanOf(await spansOf(traced.receiver, caller.traceId));
    expect(server.attributes['api.validator.duration_ms']).toBeGreaterThan(0);
  });

  it('names the limit that refused it: the key rate limit once the key is known, else authentication', async () => {
    const traced = await tracedServer(
      { OTEL_TRACES_SAMPLER: 'always_on' },
      { rateLimit: { windowMs: 60_000, limit: 1 }, authFailureLimit: { windowMs: 60_000, limit: 1 } },
    );
    const { workspace } = traced;
    const path = pathOf('getKey', { hash: workspace.standardKeyHash });
    const refusedBy = async (key: string) => {
      const caller = callerTrace();
      const response = await send(traced, 'GET', path, { key, traceparent: caller.traceparent });
      const server = serverSpanOf(await spansOf(traced.receiver, caller.traceId));
      return [response.status, server.attributes['api.refused_by']];
    };
    expect(await refusedBy(workspace.managementKey)).toEqual([200, undefined]);
    expect(await refusedBy(workspace.managementKey)).toEqual([429, 'rate limit']);
    const wrongKey = `${workspace.managementKey.slice(0, -4)}0000`;
    expect(await refusedBy(wrongKey)).toEqual([401, 'authentication']);
    expect(await refusedBy(wrongKey)).toEqual([429, 'authentication']);
  });

  it('names no refusal for an answer outside the operations', async () => {
    const traced = await tracedServer({ OTEL_TRACES_SAMPLER: 'always_on' });
    const caller = callerTrace();
    expect((await send(traced, 'GET', '/openapi.yaml', { traceparent: caller.traceparent })).status).toBe(200);
    const server = serverSpanOf(await spansOf(traced.receiver, caller.traceId));
    expect(server.name).toBe('GET');
    expect(server.attributes).not.toHaveProperty('api.refused_by');
    expect(server.attributes).not.toHaveProperty('http.route');
  });
});
