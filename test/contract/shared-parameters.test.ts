// Parameters shared by the operations of a path (declared on the path item) and parameters written
// once in components.parameters and referenced with $ref apply as if written on each operation:
// wherever the server or the tests read the spec's parameters, they read them through
// specOperations, which merges and follows them.
import { describe, expect, it } from 'vitest';
import { ContractError, type OpenApiDocument, specOperation, specOperations } from '../../server/spec.js';
import { call } from '../support/server.js';
import { spec } from '../support/spec.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

const LIST = '/presets/{slug}/versions';

/** The spec with listPresetVersions' slug on its path item and its limit and offset as $refs. */
function withSharedParameters(): OpenApiDocument {
  const copy = structuredClone(spec);
  const item = copy.paths[LIST];
  const list = item?.get;
  if (!item || !list) throw new Error(`openapi.yaml has no GET ${LIST}`);
  const own = list.parameters ?? [];
  const named = (name: string) => own.find((p) => 'name' in p && p.name === name);
  copy.components.parameters = {
    ...copy.components.parameters,
    Limit: named('limit') as never,
    Offset: named('offset') as never,
  };
  item.parameters = [named('slug') as never];
  // The $refs the operation already has (the trace context's headers) stay after the two new ones.
  list.parameters = [
    { $ref: '#/components/parameters/Limit' },
    { $ref: '#/components/parameters/Offset' },
    ...own.filter((p) => '$ref' in p),
  ];
  return copy;
}

describe('the parameters of an operation, as specOperations gives them', () => {
  const entry = () => specOperation(withSharedParameters(), 'listPresetVersions');

  it('include the path item’s and the referenced ones, each with the pointer where it is written', () => {
    expect(entry()?.parameters.map((p) => [p.in, p.name, p.pointer])).toEqual([
      ['path', 'slug', '#/paths/~1presets~1{slug}~1versions/parameters/0'],
      ['query', 'limit', '#/components/parameters/Limit'],
      ['query', 'offset', '#/components/parameters/Offset'],
      ['header', 'traceparent', '#/components/parameters/TraceParent'],
      ['header', 'tracestate', '#/components/parameters/TraceState'],
    ]);
  });

  it('let the operation’s own declaration win over the path item’s of the same name and location', () => {
    const copy = withSharedParameters();
    const item = copy.paths[LIST];
    item?.get?.parameters?.push({ name: 'slug', in: 'path', required: true, schema: { type: 'string', maxLength: 3 } });
    const found = specOperation(copy, 'listPresetVersions');
    const slugs = found?.parameters.filter((p) => p.name === 'slug') ?? [];
    expect(slugs.map((p) => [p.schema, p.pointer])).toEqual([
      [{ type: 'string', maxLength: 3 }, '#/paths/~1presets~1{slug}~1versions/get/parameters/4'],
    ]);
  });

  it('name the parameter whose $ref leads nowhere', () => {
    const copy = withSharedParameters();
    const list = copy.paths[LIST]?.get;
    if (list) list.parameters = [{ $ref: '#/components/parameters/Missing' }];
    expect(() => specOperations(copy)).toThrow(
      new ContractError(
        '#/paths/~1presets~1{slug}~1versions/get/parameters/0: $ref #/components/parameters/Missing names nothing',
      ),
    );
  });
});

describe('a server on a spec with shared and referenced parameters', () => {
  const server = useTestServer({ spec: withSharedParameters() });
  const workspace = useWorkspace(server);

  it('checks a referenced query integer as written in digits, as it does one written in place', async () => {
    const answer = await call(server, 'GET', '/api/v1/presets/none/versions?limit=1e1', { key: workspace.standardKey });
    expect([answer.status, answer.body.error?.metadata?.errors]).toEqual([
      400,
      [{ path: '/query/limit', message: 'must be an integer written in digits' }],
    ]);
  });

  it('serves the operation with its path-level parameter', async () => {
    const answer = await call(server, 'GET', '/api/v1/presets/none/versions?limit=5', { key: workspace.standardKey });
    expect(answer.status).toBe(404);
    const errors = server.serverErrors();
    expect(errors, errors.map((entry) => JSON.stringify(entry)).join('\n')).toEqual([]);
  });
});
