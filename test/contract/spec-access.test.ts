// How the server reaches the contract: reading openapi.yaml (and what it says when it cannot),
// pointers into it, its schemas compiled strictly, and the paths where its operations are served.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  apiBasePaths,
  ContractError,
  compileComponent,
  componentSchemaName,
  createSpecAjv,
  escapePointer,
  followRefs,
  isObject,
  type JsonObject,
  loadSpec,
  nodeAt,
  type OpenApiDocument,
  operationPath,
  resolveRef,
  specOperation,
} from '../../server/spec.js';
import { spec } from '../support/spec.js';

const folder = mkdtempSync(join(tmpdir(), 'spec-access-'));

function specFile(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

function contractErrorOf(path: string): string {
  try {
    loadSpec(path);
  } catch (err) {
    expect(err).toBeInstanceOf(ContractError);
    expect((err as Error).name).toBe('ContractError');
    return (err as Error).message;
  }
  throw new Error(`${path} was read`);
}

function withSchemas(schemas: Record<string, JsonObject>): OpenApiDocument {
  return { ...spec, components: { ...spec.components, schemas: { ...spec.components.schemas, ...schemas } } };
}

describe('loading the contract', () => {
  it('reads the YAML of the file', () => {
    expect(loadSpec(specFile('small.yaml', 'openapi: 3.1.1\ninfo:\n  title: Small\n'))).toEqual({
      openapi: '3.1.1',
      info: { title: 'Small' },
    });
  });

  it('says which file cannot be read, and why', () => {
    const missing = join(folder, 'missing.yaml');
    expect(contractErrorOf(missing)).toBe(`cannot read ${missing}: ENOENT`);
    expect(contractErrorOf(folder)).toBe(`cannot read ${folder}: EISDIR`);
  });

  it('says where the YAML is broken, with lines and columns counted from 1', () => {
    const unclosed = specFile('unclosed.yaml', 'paths: [1, 2\n');
    expect(contractErrorOf(unclosed)).toBe(
      `${unclosed} is not valid YAML: unexpected end of the stream within a flow collection (line 2, column 1)`,
    );
    const indented = specFile('indented.yaml', 'a:\n  - b\n c: d\n');
    expect(contractErrorOf(indented)).toBe(
      `${indented} is not valid YAML: bad indentation of a mapping entry (line 3, column 2)`,
    );
  });
});

describe('pointers into the contract', () => {
  it('escape ~ and / in a segment', () => {
    expect(escapePointer('/keys/{hash}')).toBe('~1keys~1{hash}');
    expect(escapePointer('a~b/c')).toBe('a~0b~1c');
  });

  it('reach the node they name, unescaping ~1 and ~0', () => {
    const document = { paths: { '/keys/{hash}': { get: 'getKey' }, 'a~b': 'tilde', '~1': 'escaped' } };
    const at = (pointer: string) => nodeAt(document as unknown as OpenApiDocument, pointer);
    expect(at('#/paths/~1keys~1{hash}/get')).toBe('getKey');
    expect(at('#/paths/a~0b')).toBe('tilde');
    expect(at('#/paths/~01')).toBe('escaped');
    expect(at(`#/paths/${escapePointer('a~b')}`)).toBe('tilde');
  });

  it('reach nothing past a leaf, or through a name the node does not own', () => {
    expect(nodeAt(spec, '#/components/schemas/Uuid')).toEqual(spec.components.schemas.Uuid);
    expect(nodeAt(spec, '#/components/schemas/Nope')).toBeUndefined();
    expect(nodeAt(spec, '#/openapi/length')).toBeUndefined();
    expect(nodeAt(spec, '#/components/schemas/toString')).toBeUndefined();
    // `#/` marks the fragment only at the start: elsewhere it is part of a name.
    expect(nodeAt(spec, 'compo#/nents/schemas/Uuid')).toBeUndefined();
  });
});

describe('$refs of the contract', () => {
  it('are followed to the end of a chain, a node that is no $ref being itself', () => {
    const chained = withSchemas({
      First: { $ref: '#/components/schemas/Second' },
      Second: { $ref: '#/components/schemas/Uuid' },
    });
    expect(resolveRef(chained, { $ref: '#/components/schemas/First' })).toBe(spec.components.schemas.Uuid);
    const inline = { type: 'string' };
    expect(resolveRef(spec, inline)).toBe(inline);
    expect(resolveRef(spec, undefined)).toBeUndefined();
  });

  it('are a ContractError when one names nothing, or a chain goes on past 16', () => {
    expect(() => resolveRef(spec, { $ref: '#/components/schemas/Nope' })).toThrow(
      new ContractError('openapi.yaml: $ref #/components/schemas/Nope names nothing'),
    );
    const loop = withSchemas({ Loop: { $ref: '#/components/schemas/Loop' } });
    expect(() => resolveRef(loop, { $ref: '#/components/schemas/Loop' }, '#/x')).toThrow(
      new ContractError('#/x: $ref chain too long'),
    );
  });

  it('are told one by one to whoever follows them, and read percent-encoded as a URI fragment may be', () => {
    const chained = withSchemas({
      First: { $ref: '#/components/schemas/Second' },
      Second: { $ref: '#/components/schemas/%55uid' },
    });
    const hops: string[] = [];
    const { node, pointer } = followRefs(chained, { $ref: '#/components/schemas/First' }, '#/x', (ref) =>
      hops.push(ref),
    );
    expect(hops).toEqual(['#/components/schemas/First', '#/components/schemas/Second', '#/components/schemas/%55uid']);
    expect(node).toBe(spec.components.schemas.Uuid);
    expect(pointer).toBe('#/components/schemas/%55uid');
  });

  it('name their component schema, and no other kind of node', () => {
    expect(componentSchemaName('#/components/schemas/Uuid')).toBe('Uuid');
    expect(componentSchemaName('#/components/schemas/a~1b')).toBe('a/b');
    expect(componentSchemaName('#/components/responses/NotFound')).toBeUndefined();
  });
});

describe('JSON objects', () => {
  it('are neither null nor arrays', () => {
    expect([{}, { a: 1 }, [], null, 'a', 1, undefined].map(isObject)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('the validator of the contract', () => {
  it('reports every failing field of a value, not only the first', () => {
    const validate = compileComponent(
      createSpecAjv(
        withSchemas({
          Pair: { type: 'object', properties: { name: { type: 'string' }, count: { type: 'integer' } } },
        }),
      ),
      'Pair',
    );
    expect(validate({ name: 1, count: 'two' })).toBe(false);
    expect(validate.errors?.map((error) => `${error.instancePath} ${error.message}`)).toEqual([
      '/name must be string',
      '/count must be integer',
    ]);
  });

  it('refuses a schema with a keyword it does not know, such as a misspelt one', () => {
    const ajv = createSpecAjv(withSchemas({ Code: { type: 'string', maxLenght: 3 } }));
    expect(() => compileComponent(ajv, 'Code')).toThrow('strict mode: unknown keyword: "maxLenght"');
  });

  it('takes a tuple whose further items are left open', () => {
    const ajv = createSpecAjv(withSchemas({ Pair: { type: 'array', prefixItems: [{ type: 'string' }] } }));
    const validate = compileComponent(ajv, 'Pair');
    expect(validate(['a', 1, true])).toBe(true);
    expect(validate([1])).toBe(false);
  });

  it('says which component the contract lacks', () => {
    expect(() => compileComponent(createSpecAjv(spec), 'Nope')).toThrow(
      'openapi.yaml has no schema at #/components/schemas/Nope',
    );
  });
});

describe('where the operations are served', () => {
  it('is the path of each server URL, without trailing slashes', () => {
    const servedAt = (servers: { url: string }[]) => apiBasePaths({ ...spec, servers });
    expect(servedAt([{ url: 'https://api.example.com/v2//' }])).toEqual(['/v2']);
    expect(servedAt([{ url: '/v1' }, { url: 'https://api.example.com/v1/' }, { url: '/v3' }])).toEqual(['/v1', '/v3']);
  });

  it('is the root when the contract names no server', () => {
    expect(apiBasePaths({ ...spec, servers: [] })).toEqual(['']);
    const { servers: _servers, ...withoutServers } = spec;
    expect(apiBasePaths(withoutServers as OpenApiDocument)).toEqual(['']);
  });

  it('gives the path of an operation under the first server, its parameters encoded', () => {
    expect(operationPath(spec, 'getKey', { hash: 'a/b c' })).toBe('/api/v1/keys/a%2Fb%20c');
    expect(operationPath(spec, 'listPresetVersions', { slug: 'support-agent' })).toBe(
      '/api/v1/presets/support-agent/versions',
    );
    expect(operationPath(spec, 'getKey', {})).toBe('/api/v1/keys/');
  });

  it('refuses an operation the contract does not have', () => {
    expect(() => operationPath(spec, 'deleteKey', { hash: 'x' })).toThrow('openapi.yaml has no operation deleteKey');
  });

  it('finds an operation by its operationId, or says the contract has none', () => {
    expect(specOperation(spec, 'getKey')).toMatchObject({ method: 'get', template: '/keys/{hash}' });
    expect(() => specOperation(spec, 'deleteKey')).toThrow(
      new ContractError('openapi.yaml has no operation deleteKey'),
    );
  });
});
