// The sizes check (domain/size-limits.ts) on schemas written for it, beside the spec's own in
// test/hardening/body-sizes.test.ts: a size at the root of a body, an open object cut to its first
// properties, alternatives that set different sizes for one value, and a size inside another that
// the validator reports first.
import { describe, expect, it } from 'vitest';
import { createSpecAjv, type OpenApiDocument, requestBodySchemaPointer } from '../../server/spec.js';
import { requestBodySizesChecks } from '../../server/validation/size-limits.js';

/** A document whose operation `name` takes a JSON body of `schema`, one operation per schema. */
function documentOf(schemas: Record<string, unknown>): OpenApiDocument {
  const operation = (name: string) => ({
    operationId: name,
    requestBody: { content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
    responses: { '204': { description: 'done' } },
  });
  return {
    openapi: '3.1.0',
    info: { title: 'sizes', version: '1' },
    paths: {
      ...Object.fromEntries(Object.keys(schemas).map((name) => [`/${name}`, { post: operation(name) }])),
      '/bodiless': { get: { operationId: 'bodiless', responses: { '204': { description: 'done' } } } },
    },
    components: {
      schemas: {
        ErrorMetadata: { type: 'object', properties: { errors: { type: 'array', maxItems: 5 } } },
        ...schemas,
      },
    },
  } as unknown as OpenApiDocument;
}

const document = documentOf({
  rootList: { type: 'array', maxItems: 2 },
  openObject: { type: 'object', maxProperties: 2 },
  // The larger size of the two alternatives that take arrays applies, whichever the validator names first.
  alternatives: { oneOf: [{ type: 'array', maxItems: 1 }, { type: 'array', maxItems: 3 }, { type: 'string' }] },
  alternativesLargerFirst: {
    anyOf: [
      { type: 'array', maxItems: 3 },
      { type: 'array', maxItems: 1 },
    ],
  },
  // The alternative's own failure is reported at the value too, with no size to cut it to.
  alternativeWithSizesInside: { oneOf: [{ type: 'array', items: { type: 'array', maxItems: 1 } }, { type: 'string' }] },
  // Past its 2 properties, a closed object keeps as many unknown ones as a 400 lists (5), and one more.
  closed: { type: 'object', additionalProperties: false, properties: { a: {}, b: {} } },
  closedByPattern: { type: 'object', additionalProperties: false, patternProperties: { '^x': {} } },
  open: { type: 'object', properties: { a: {} } },
  // allOf is checked before maxItems: the items' sizes are reported before the list's own.
  nested: { type: 'array', maxItems: 1, allOf: [{ items: { type: 'array', maxItems: 1 } }] },
});
const checks = requestBodySizesChecks(document, createSpecAjv(document));

function checked(name: string, body: unknown) {
  const check = checks.get(requestBodySchemaPointer({ template: `/${name}`, method: 'post' }));
  if (!check) throw new Error(`no sizes check for ${name}`);
  return { errors: check(body, '/body'), body };
}

describe('the sizes check of a body', () => {
  it('has a check for each operation with a JSON body, and none for one without', () => {
    expect(checks.size).toBe(Object.keys(document.paths).length - 1);
    expect(checks.get(requestBodySchemaPointer({ template: '/bodiless', method: 'get' }))).toBeUndefined();
  });

  it('keeps of a closed object its own properties and as many unknown ones as a 400 lists, and one more', () => {
    const unknown = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`u${i}`, i]));
    const { errors, body } = checked('closed', { a: 1, b: 2, ...unknown });
    expect(errors).toEqual([]);
    expect(Object.keys(body as object)).toEqual(['a', 'b', 'u0', 'u1', 'u2', 'u3', 'u4', 'u5']);
  });

  it('keeps whole an object that takes properties by pattern, or any property', () => {
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`x${i}`, i]));
    for (const name of ['closedByPattern', 'open'])
      expect(checked(name, { ...many })).toEqual({ errors: [], body: many });
  });

  it('names a body past its size at the root by the root, and cuts it', () => {
    expect(checked('rootList', [1, 2, 3, 4])).toEqual({
      errors: [{ path: '/body', message: 'must NOT have more than 2 items' }],
      body: [1, 2],
    });
  });

  it('cuts an open object past its size to its first properties', () => {
    expect(checked('openObject', { a: 1, b: 2, c: 3, d: 4 })).toEqual({
      errors: [{ path: '/body', message: 'must NOT have more than 2 properties' }],
      body: { a: 1, b: 2 },
    });
  });

  it('cuts a value that alternatives size differently to the largest size, named once', () => {
    for (const name of ['alternatives', 'alternativesLargerFirst'])
      expect(checked(name, [1, 2, 3, 4, 5])).toEqual({
        errors: [{ path: '/body', message: 'must NOT have more than 3 items' }],
        body: [1, 2, 3],
      });
  });

  it('cuts only the parts past a size inside an alternative', () => {
    expect(checked('alternativeWithSizesInside', [[1, 2], [3]])).toEqual({
      errors: [{ path: '/body/0', message: 'must NOT have more than 1 items' }],
      body: [[1], [3]],
    });
  });

  it('names an outer part before what it holds, and nothing it cut away', () => {
    expect(
      checked('nested', [
        [1, 2],
        [3, 4],
        [5, 6],
      ]),
    ).toEqual({
      errors: [
        { path: '/body', message: 'must NOT have more than 1 items' },
        { path: '/body/0', message: 'must NOT have more than 1 items' },
      ],
      body: [[1]],
    });
  });

  it('passes a body within its sizes untouched', () => {
    expect(checked('nested', [[1]])).toEqual({ errors: [], body: [[1]] });
    expect(checked('alternatives', 'text')).toEqual({ errors: [], body: 'text' });
  });
});
