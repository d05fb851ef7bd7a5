import { describe, expect, it } from 'vitest';
import { type Change, compareSpecs } from '../../scripts/spec-diff/engine/compare.js';

// Specs edited in place, many levels deep, by each case: typing every level would say nothing more.
// biome-ignore lint/suspicious/noExplicitAny: documents edited freely by the cases below
type Json = Record<string, any>;

/** A small spec: one GET with a query parameter, one PATCH with a body, one response schema. */
function base(): Json {
  return {
    openapi: '3.1.0',
    info: { title: 't', version: '1.0.0' },
    paths: {
      '/items/{id}': {
        get: {
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
          ],
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } },
            },
            '404': { description: 'no' },
          },
        },
        patch: {
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { name: { type: 'string', maxLength: 50 }, kind: { type: 'string', enum: ['a', 'b'] } },
                },
              },
            },
          },
          responses: { '200': { description: 'ok' } },
        },
      },
    },
    components: {
      schemas: {
        Item: {
          type: 'object',
          required: ['id', 'name'],
          properties: { id: { type: 'string' }, name: { type: 'string' }, note: { type: 'string' } },
        },
      },
    },
  };
}

async function diff(edit: (spec: Json) => void): Promise<Change[]> {
  const after = base();
  edit(after);
  return compareSpecs(base(), after);
}

const errorsOf = (changes: Change[]) => changes.filter((c) => c.level === 'error').map((c) => c.id);

describe('spec:diff rules', () => {
  it.each<[string, (spec: Json) => void, string]>([
    ['an operation removed', (s) => delete s.paths['/items/{id}'].patch, 'api-removed-without-deprecation'],
    ['a path removed', (s) => delete s.paths['/items/{id}'], 'api-path-removed-without-deprecation'],
    [
      'an optional response property removed',
      (s) => delete s.components.schemas.Item.properties.note,
      'response-optional-property-removed',
    ],
    [
      'a response property renamed',
      (s) => {
        s.components.schemas.Item.properties.title = s.components.schemas.Item.properties.name;
        delete s.components.schemas.Item.properties.name;
      },
      'response-required-property-removed',
    ],
    [
      'a response property made optional',
      (s) => (s.components.schemas.Item.required = ['id']),
      'response-property-became-optional',
    ],
    [
      'a response property made nullable',
      (s) => (s.components.schemas.Item.properties.name.type = ['string', 'null']),
      'response-property-became-nullable',
    ],
    [
      'a new required request property',
      (s) => {
        const body = s.paths['/items/{id}'].patch.requestBody.content['application/json'].schema;
        body.properties.owner = { type: 'string' };
        body.required = ['owner'];
      },
      'new-required-request-property',
    ],
    [
      'a new required parameter',
      (s) =>
        s.paths['/items/{id}'].get.parameters.push({
          name: 'tenant',
          in: 'query',
          required: true,
          schema: { type: 'string' },
        }),
      'new-required-request-parameter',
    ],
    [
      'a minimum raised',
      (s) => (s.paths['/items/{id}'].get.parameters[1].schema.minimum = 5),
      'request-parameter-min-increased',
    ],
    [
      'a maximum lowered',
      (s) => (s.paths['/items/{id}'].get.parameters[1].schema.maximum = 50),
      'request-parameter-max-decreased',
    ],
    [
      'a maxLength lowered',
      (s) =>
        (s.paths['/items/{id}'].patch.requestBody.content['application/json'].schema.properties.name.maxLength = 10),
      'request-property-max-length-decreased',
    ],
    [
      'a pattern added',
      (s) =>
        (s.paths['/items/{id}'].patch.requestBody.content['application/json'].schema.properties.name.pattern =
          '^[a-z]+$'),
      'request-property-pattern-added',
    ],
    [
      'an enum value removed',
      (s) => (s.paths['/items/{id}'].patch.requestBody.content['application/json'].schema.properties.kind.enum = ['a']),
      'request-property-enum-value-removed',
    ],
    // A query parameter travels as text, so integer -> string is generalized for oasdiff; -> boolean is not.
    [
      'a type changed',
      (s) => (s.paths['/items/{id}'].get.parameters[1].schema.type = 'boolean'),
      'request-parameter-type-changed',
    ],
    [
      'a response status removed',
      (s) => delete s.paths['/items/{id}'].get.responses['404'],
      'response-non-success-status-removed',
    ],
    // oasdiff's id for it, at error by the project's override (see notes/breaking-changes.md).
    ['security added', (s) => (s.security = [{ bearer: [] }]), 'api-global-security-added'],
    [
      'an object split into alternatives',
      (s) => {
        const body = s.paths['/items/{id}'].patch.requestBody.content['application/json'];
        body.schema = {
          oneOf: [
            { ...body.schema, required: ['name'] },
            { ...body.schema, required: ['kind'] },
          ],
        };
      },
      // oasdiff v1.28.0 names a body that becomes a oneOf of shapes so, as one finding.
      'request-body-wrapped-in-one-of',
    ],
  ])('reports %s as %s', async (_name, edit, expected) => {
    const ids = (await diff(edit)).map((c) => c.id);
    expect(ids).toContain(expected);
  });

  it.each<[string, (spec: Json) => void]>([
    ['an operation added', (s) => (s.paths['/items'] = { get: { responses: { '200': { description: 'ok' } } } })],
    [
      'an optional parameter added',
      (s) => s.paths['/items/{id}'].get.parameters.push({ name: 'q', in: 'query', schema: { type: 'string' } }),
    ],
    ['a response property added', (s) => (s.components.schemas.Item.properties.extra = { type: 'string' })],
    ['a maximum raised', (s) => (s.paths['/items/{id}'].get.parameters[1].schema.maximum = 500)],
    [
      'an enum value added to a request',
      (s) => s.paths['/items/{id}'].patch.requestBody.content['application/json'].schema.properties.kind.enum.push('c'),
    ],
    ['a response status added', (s) => (s.paths['/items/{id}'].get.responses['429'] = { description: 'slow down' })],
    ['a description changed', (s) => (s.paths['/items/{id}'].get.description = 'Now documented.')],
  ])('reports %s with no error', async (_name, edit) => {
    expect(errorsOf(await diff(edit))).toEqual([]);
  });

  describe('security roles', () => {
    const withSecurity = (security: Json[]) => {
      const spec = base();
      spec.security = [{ bearer: [] }];
      spec.paths['/items/{id}'].get.security = security;
      return spec;
    };
    const compare = (before: Json[], after: Json[]) => compareSpecs(withSecurity(before), withSecurity(after));

    it('reports a role now required as an error, api-security-scope-added, overriding oasdiff visibly', async () => {
      const changes = await compare([{ bearer: [] }], [{ bearer: ['admin'] }]);
      expect(changes.map((c) => [c.level, c.id, c.what, c.override])).toEqual([
        [
          'error',
          'api-security-scope-added',
          'bearer: [] -> bearer: [admin] (project override: oasdiff says info)',
          'project override: oasdiff says info',
        ],
        ['info', 'api-version-not-bumped', 'breaking changes, version still 1.0.0', undefined],
      ]);
    });

    it('reports an alternative added as info, api-security-added', async () => {
      const changes = await compare([{ bearer: ['admin'] }], [{ bearer: ['admin'] }, { other: [] }]);
      expect(changes.map((c) => [c.level, c.id, c.what])).toEqual([
        ['info', 'api-security-added', 'alternative other: [] added'],
      ]);
    });
  });

  it('reports no change for the same document', async () => {
    expect(await diff(() => undefined)).toEqual([]);
  });
});
