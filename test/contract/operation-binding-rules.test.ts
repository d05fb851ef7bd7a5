// What binding reads from each operation of the spec (its Express route, the key kinds it accepts,
// its header parameters), and the exact message of each mismatch that stops the server.
import { describe, expect, it } from 'vitest';
import { bindOperations } from '../../server/operations/bind.js';
import { operationHandlers } from '../../server/operations/handlers.js';
import { ContractError, type OpenApiDocument, type OpenApiOperation, specOperations } from '../../server/spec.js';
import { spec } from '../support/spec.js';

function specWith(edit: (copy: OpenApiDocument) => void): OpenApiDocument {
  const copy = structuredClone(spec);
  edit(copy);
  return copy;
}

function getKeyOperation(copy: OpenApiDocument): OpenApiOperation {
  const operation = copy.paths['/keys/{hash}']?.get;
  if (!operation) throw new Error('openapi.yaml has no GET /keys/{hash}');
  return operation;
}

const mismatch = (problems: string) => `openapi.yaml and server/operations do not match: ${problems}`;

/** The whole message of the ContractError that binding the document throws. */
function bindingError(document: OpenApiDocument): string {
  try {
    bindOperations(document, operationHandlers);
  } catch (err) {
    expect(err).toBeInstanceOf(ContractError);
    return (err as Error).message;
  }
  throw new Error('the document was bound without an error');
}

const bound = (document: OpenApiDocument, operationId: string) =>
  bindOperations(document, operationHandlers).find((b) => b.id === operationId);

describe('binding operations to handlers', () => {
  it('passes each handler the header parameters its operation declares, and only those', () => {
    const declared = specOperations(spec).map(({ operation, parameters }) => [
      operation.operationId,
      parameters.filter((p) => p.in === 'header').map((p) => p.name),
    ]);
    expect(declared).toContainEqual(['updateObservabilityDestination', ['If-Match', 'traceparent', 'tracestate']]);
    expect(bindOperations(spec, operationHandlers).map((b) => [b.id, b.headerParameters])).toEqual(declared);
  });

  it('takes the security requirement of the spec for an operation that states none', () => {
    const inherited = specWith((copy) => {
      delete getKeyOperation(copy).security;
      copy.security = [{ bearerAuth: ['standard'] }];
    });
    expect(bound(inherited, 'getKey')?.keyKinds).toEqual(['standard']);
  });

  it('refuses an operation that no security requirement applies to', () => {
    const unsecured = specWith((copy) => {
      delete getKeyOperation(copy).security;
      delete copy.security;
    });
    expect(bindingError(unsecured)).toBe(
      mismatch(
        'operation getKey (GET /keys/{hash}): no security requirement names a key kind, e.g. bearerAuth: [management]',
      ),
    );
  });

  it('suggests the first key kind of the spec for an operation that names none', () => {
    const edited = specWith((copy) => {
      (copy.components.schemas.KeyKind as { enum: string[] }).enum = ['standard', 'management'];
      getKeyOperation(copy).security = [{ bearerAuth: [] }];
    });
    expect(bindingError(edited)).toBe(
      mismatch(
        'operation getKey (GET /keys/{hash}): no security requirement names a key kind, e.g. bearerAuth: [standard]',
      ),
    );
  });

  it('suggests a management key when the spec has no KeyKind to take a kind from', () => {
    const edited = specWith((copy) => {
      delete copy.components.schemas.KeyKind;
      for (const { operation } of specOperations(copy)) operation.security = [{ bearerAuth: [] }];
    });
    const each = specOperations(spec).map(
      ({ operation, method, template }) =>
        `operation ${operation.operationId} (${method.toUpperCase()} ${template}): no security requirement names a key kind, e.g. bearerAuth: [management]`,
    );
    expect(each[0]).toBe(
      'operation getKey (GET /keys/{hash}): no security requirement names a key kind, e.g. bearerAuth: [management]',
    );
    expect(bindingError(edited)).toBe(mismatch(each.join('; ')));
  });

  it('names only the key kind that is wrong, not also a missing kind', () => {
    const edited = specWith((copy) => {
      getKeyOperation(copy).security = [{ bearerAuth: ['admin'] }];
    });
    expect(bindingError(edited)).toBe(
      mismatch('operation getKey (GET /keys/{hash}): key kind "admin" is not one of KeyKind (management, standard)'),
    );
  });

  it('refuses an http scheme that is not bearer, and takes bearer in any case', () => {
    const basic = specWith((copy) => {
      copy.components.securitySchemes.basicAuth = { type: 'http', scheme: 'basic' };
      getKeyOperation(copy).security = [{ basicAuth: ['management'] }];
    });
    expect(bindingError(basic)).toBe(
      mismatch(
        'operation getKey (GET /keys/{hash}): security scheme basicAuth is not an http bearer scheme of components.securitySchemes',
      ),
    );
    const capitalised = specWith((copy) => {
      copy.components.securitySchemes.bearerAuth = { type: 'http', scheme: 'Bearer' };
    });
    expect(bound(capitalised, 'getKey')?.keyKinds).toEqual(['management']);
  });

  it('refuses an operation without an operationId, naming it by method and path', () => {
    const edited = specWith((copy) => {
      const { operationId: _none, ...operation } = getKeyOperation(copy);
      (copy.paths['/keys/{hash}'] as Record<string, unknown>).delete = operation;
    });
    expect(bindingError(edited)).toBe(mismatch('operation (no operationId) (DELETE /keys/{hash}) has no operationId'));
  });

  it('refuses an empty operationId as none', () => {
    const edited = specWith((copy) => {
      (copy.paths['/keys/{hash}'] as Record<string, unknown>).delete = { ...getKeyOperation(copy), operationId: '' };
    });
    expect(bindingError(edited)).toBe(mismatch('operation  (DELETE /keys/{hash}) has no operationId'));
  });

  it('refuses an operationId given to two operations', () => {
    const edited = specWith((copy) => {
      (copy.paths['/keys/{hash}'] as Record<string, unknown>).delete = getKeyOperation(copy);
    });
    expect(bindingError(edited)).toBe(
      mismatch('operation getKey (DELETE /keys/{hash}): operationId getKey is used twice'),
    );
  });

  it('refuses a success answer whose Cache-Control header is missing or has no const value', () => {
    const headersOf200 = (copy: OpenApiDocument) => {
      const ok = getKeyOperation(copy).responses?.['200'] as { headers?: Record<string, unknown> } | undefined;
      if (!ok?.headers) throw new Error('openapi.yaml has no headers on the 200 of getKey');
      return ok.headers;
    };
    const message = mismatch(
      'operation getKey (GET /keys/{hash}): response 200 documents no Cache-Control header with a const value',
    );
    expect(bindingError(specWith((copy) => delete headersOf200(copy)['Cache-Control']))).toBe(message);
    const notConst = specWith((copy) => {
      headersOf200(copy)['Cache-Control'] = { schema: { type: 'string' } };
    });
    expect(bindingError(notConst)).toBe(message);
    const twoWithout = specWith((copy) => {
      delete headersOf200(copy)['Cache-Control'];
      const responses = getKeyOperation(copy).responses as Record<string, unknown>;
      responses['203'] = { description: 'Another success answer, with no headers.' };
    });
    expect(bindingError(twoWithout)).toBe(
      mismatch(
        'operation getKey (GET /keys/{hash}): response 200, 203 documents no Cache-Control header with a const value',
      ),
    );
  });

  it('refuses a request body of any media type but application/json, which is the only one the server reads', () => {
    const edited = specWith((copy) => {
      const content = copy.paths['/observability/destinations/{id}']?.patch?.requestBody?.content;
      if (!content?.['application/json']) throw new Error('openapi.yaml has no JSON body for the PATCH');
      content['application/merge-patch+json'] = content['application/json'];
    });
    expect(bindingError(edited)).toBe(
      mismatch(
        'operation updateObservabilityDestination (PATCH /observability/destinations/{id}): request body media type application/merge-patch+json is not application/json, the only one the server reads',
      ),
    );
    expect(bound(spec, 'updateObservabilityDestination')?.definition.requestBody?.content).toHaveProperty([
      'application/json',
    ]);
  });
});
