// The explanation of a failing value reads the spec's schemas as objects: a branch of a oneOf that
// is a boolean schema (true or false) is refused, naming where it stands, rather than explained.
import { describe, expect, it } from 'vitest';
import { createSpecAjv, type OpenApiDocument } from '../../server/spec.js';
import { schemaExplainer } from '../../server/validation/schema-errors.js';

const spec = {
  openapi: '3.1.0',
  info: { title: 'Boolean branches', version: '1' },
  servers: [],
  paths: {},
  components: {
    schemas: { Flag: { oneOf: [{ type: 'string' }, false] } },
    responses: {},
    securitySchemes: {},
  },
} as unknown as OpenApiDocument;

describe('a branch of a oneOf that is a boolean schema', () => {
  it('is refused by where it stands when a value fails the oneOf', () => {
    const explainer = schemaExplainer(spec, createSpecAjv(spec));
    expect(() => explainer.explain('#/components/schemas/Flag', 5, '/flag')).toThrow(
      new Error('openapi.yaml has no schema at #/components/schemas/Flag/oneOf/1'),
    );
  });
});
