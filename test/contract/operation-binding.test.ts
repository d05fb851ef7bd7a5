// Operations are bound to their handlers by operationId: the spec and server/operations must
// match exactly, or the server does not start.
import { describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.js';
import { bindOperations } from '../../server/operations/bind.js';
import { operationHandlers } from '../../server/operations/handlers.js';
import { apiBasePaths, ContractError, type OpenApiDocument, specOperations } from '../../server/spec.js';
import type { AnyHandler } from '../../server/validation/operation.js';
import { spec } from '../support/spec.js';

function specWith(edit: (copy: OpenApiDocument) => void): OpenApiDocument {
  const copy = structuredClone(spec);
  edit(copy);
  return copy;
}

const deleteKey = {
  operationId: 'deleteKey',
  summary: 'Delete a key.',
  security: [{ bearerAuth: ['management'] }],
  responses: { '204': { description: 'Deleted.' } },
};

describe('binding operations to handlers', () => {
  it('binds every operation of openapi.yaml to a handler, and every handler to an operation', () => {
    const bound = bindOperations(spec, operationHandlers);
    expect(bound.map((b) => b.id).sort()).toEqual(Object.keys(operationHandlers).sort());
  });

  it('binds each operation at its path and method, with the kinds its security requirement accepts', () => {
    const bound = bindOperations(spec, operationHandlers);
    // What the spec says of each operation: each requirement's role a kind.
    const expected = specOperations(spec).map(({ operation, method, template }) => [
      operation.operationId,
      method,
      template,
      (operation.security ?? spec.security ?? []).flatMap((requirement) => Object.values(requirement).flat()),
    ]);
    expect(expected).toContainEqual(['getKey', 'get', '/keys/{hash}', ['management']]);
    expect(bound.map((b) => [b.id, b.method, b.template, b.keyKinds])).toEqual(expected);
  });

  it('refuses a spec operation that has no handler, naming it', () => {
    const withNewOperation = specWith((copy) => {
      (copy.paths['/keys/{hash}'] as Record<string, unknown>).delete = deleteKey;
    });
    expect(() => bindOperations(withNewOperation, operationHandlers)).toThrow(ContractError);
    expect(() => bindOperations(withNewOperation, operationHandlers)).toThrow(
      'operation deleteKey (DELETE /keys/{hash}) has no handler in server/operations',
    );
    expect(() => createApp({ ...appDeps(), spec: withNewOperation })).toThrow(/deleteKey/);
  });

  it('refuses a handler that has no operation in the spec, naming it', () => {
    const handlers: Record<string, AnyHandler> = {
      ...operationHandlers,
      rotateKey: async () => ({ status: 200, body: {} }),
    };
    expect(() => bindOperations(spec, handlers)).toThrow('handler rotateKey has no operation in openapi.yaml');
  });

  it('names every mismatch on one line', () => {
    const { listPresetVersions: _dropped, ...handlers } = {
      ...operationHandlers,
      rotateKey: (async () => ({})) as AnyHandler,
    };
    try {
      bindOperations(spec, handlers);
      expect.unreachable();
    } catch (err) {
      const message = (err as Error).message;
      expect(message).not.toContain('\n');
      expect(message).toContain('operation listPresetVersions (GET /presets/{slug}/versions) has no handler');
      expect(message).toContain('handler rotateKey has no operation');
    }
  });

  it.each([
    [
      'an unknown key kind',
      [{ bearerAuth: ['admin'] }],
      'key kind "admin" is not one of KeyKind (management, standard)',
    ],
    ['no key kind at all', [{ bearerAuth: [] }], 'no security requirement names a key kind'],
    [
      'two kinds in one requirement',
      [{ bearerAuth: ['management', 'standard'] }],
      'requirement bearerAuth: [management, standard] asks a key to be of several kinds at once',
    ],
    [
      'a scheme that is not bearer',
      [{ apiKeyHeader: ['management'] }],
      'security scheme apiKeyHeader is not an http bearer scheme',
    ],
  ])('refuses an operation whose security requirement states %s', (_name, security, message) => {
    const edited = specWith((copy) => {
      const operation = copy.paths['/keys/{hash}']?.get;
      if (operation) operation.security = security;
    });
    expect(() => bindOperations(edited, operationHandlers)).toThrow(`operation getKey (GET /keys/{hash}): ${message}`);
  });

  it('takes the prefix from the servers of the spec', () => {
    expect(apiBasePaths(spec)).toEqual(['/api/v1']);
    expect(apiBasePaths(specWith((copy) => (copy.servers = [{ url: 'https://api.example.com/v2/' }])))).toEqual([
      '/v2',
    ]);
  });
});

function appDeps() {
  // createApp checks the binding before it touches any of these.
  return {
    store: undefined as never,
    clock: () => new Date(),
    logger: undefined as never,
    spec,
    validateResponses: false,
    rateLimit: { windowMs: 1000, limit: 1 },
    authFailureLimit: { windowMs: 1000, limit: 1 },
  };
}
