import { describe, expect, it } from 'vitest';
import { type Change, compareSpecs } from '../../scripts/spec-compare.js';

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

const breakingOf = (changes: Change[]) => changes.filter((c) => c.breaking).map((c) => `${c.where}: ${c.what}`);

describe('spec:diff rules', () => {
  it.each<[string, (spec: Json) => void, RegExp]>([
    ['an operation removed', (s) => delete s.paths['/items/{id}'].patch, /PATCH \/items\/\{id\}: method removed/],
    ['a path removed', (s) => delete s.paths['/items/{id}'], /GET \/items\/\{id\}: path removed/],
    [
      'a response property removed',
      (s) => delete s.components.schemas.Item.properties.note,
      /response 200 body\.note: property removed/,
    ],
    [
      'a response property renamed',
      (s) => {
        s.components.schemas.Item.properties.title = s.components.schemas.Item.properties.name;
        delete s.components.schemas.Item.properties.name;
      },
      /body\.name: property removed/,
    ],
    [
      'a response property made optional',
      (s) => (s.components.schemas.Item.required = ['id']),
      /body\.name: made optional/,
    ],
    [
      'a response property made nullable',
      (s) => (s.components.schemas.Item.properties.name.type = ['string', 'null']),
      /body\.name: made nullable/,
    ],
    [
      'a new required request property',
      (s) => {
        const body = s.paths['/items/{id}'].patch.requestBody.content['application/json'].schema;
        body.properties.owner = { type: 'string' };
        body.required = ['owner'];
      },
      /request body\.owner: required property added/,
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
      /query parameter tenant: new required parameter/,
    ],
    [
      'a minimum raised',
      (s) => (s.paths['/items/{id}'].get.parameters[1].schema.minimum = 5),
      /minimum tightened from 1 to 5/,
    ],
    [
      'a maximum lowered',
      (s) => (s.paths['/items/{id}'].get.parameters[1].schema.maximum = 50),
      /maximum tightened from 100 to 50/,
    ],
    [
      'a maxLength lowered',
      (s) =>
        (s.paths['/items/{id}'].patch.requestBody.content['application/json'].schema.properties.name.maxLength = 10),
      /maxLength tightened from 50 to 10/,
    ],
    [
      'a pattern added',
      (s) =>
        (s.paths['/items/{id}'].patch.requestBody.content['application/json'].schema.properties.name.pattern =
          '^[a-z]+$'),
      /pattern added/,
    ],
    [
      'an enum value removed',
      (s) => (s.paths['/items/{id}'].patch.requestBody.content['application/json'].schema.properties.kind.enum = ['a']),
      /enum value "b" removed/,
    ],
    [
      'a type changed',
      (s) => (s.paths['/items/{id}'].get.parameters[1].schema.type = 'string'),
      /type changed from integer to string/,
    ],
    [
      'a response status removed',
      (s) => delete s.paths['/items/{id}'].get.responses['404'],
      /response 404: response status removed/,
    ],
    ['security added', (s) => (s.security = [{ bearer: [] }]), /GET \/items\/\{id\}: security added/],
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
      /PATCH \/items\/\{id\} request body: alternatives \(oneOf\) changed from 1 to 2/,
    ],
  ])('classes %s as breaking', async (_name, edit, expected) => {
    const breaking = breakingOf(await diff(edit));
    expect(
      breaking.some((line) => expected.test(line)),
      breaking.join('\n'),
    ).toBe(true);
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
  ])('classes %s as compatible', async (_name, edit) => {
    const changes = await diff(edit);
    expect(breakingOf(changes)).toEqual([]);
  });

  describe('security roles', () => {
    const withSecurity = (security: Json[]) => {
      const spec = base();
      spec.security = [{ bearer: [] }];
      spec.paths['/items/{id}'].get.security = security;
      return spec;
    };
    const compare = (before: Json[], after: Json[]) => compareSpecs(withSecurity(before), withSecurity(after));

    it('classes a role now required as breaking', async () => {
      expect(breakingOf(await compare([{ bearer: [] }], [{ bearer: ['admin'] }]))).toEqual([
        'GET /items/{id}: security requirements changed from bearer: [] to bearer: [admin]',
      ]);
    });

    it('classes an alternative added as compatible', async () => {
      const changes = await compare([{ bearer: ['admin'] }], [{ bearer: ['admin'] }, { bearer: ['reader'] }]);
      expect(changes.map((c) => c.what)).toEqual([
        'security requirements changed from bearer: [admin] to bearer: [admin] or bearer: [reader]',
      ]);
      expect(breakingOf(changes)).toEqual([]);
    });
  });

  it('reports no change for the same document', async () => {
    expect(await diff(() => undefined)).toEqual([]);
  });
});
