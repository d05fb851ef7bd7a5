// A null that one branch of a oneOf admits by its type is explained by that branch's own rules,
// not as a value of the wrong type.
import { describe, expect, it } from 'vitest';
import { createSpecAjv, type OpenApiDocument } from '../../server/spec.js';
import { schemaExplainer } from '../../server/validation/schema-errors.js';

const spec = {
  openapi: '3.1.0',
  info: { title: 'Nullable branches', version: '1' },
  servers: [],
  paths: {},
  components: {
    schemas: {
      // A colour by name, null among the types its branch admits but not among its values; or a number.
      Colour: {
        oneOf: [
          { type: ['string', 'null'], enum: ['red', 'green'] },
          { type: 'integer', minimum: 0 },
        ],
      },
    },
    responses: {},
    securitySchemes: {},
  },
} satisfies OpenApiDocument;
const explainer = schemaExplainer(spec, createSpecAjv(spec));

describe('a null given for a oneOf', () => {
  it('is explained by the rules of the branch whose types admit null', () => {
    expect(explainer.explain('#/components/schemas/Colour', null, '/colour')).toEqual([
      { path: '/colour', message: 'must be one of: red, green' },
    ]);
  });

  it('is named by the types there are when no branch admits it', () => {
    expect(explainer.explain('#/components/schemas/Colour', true, '/colour')).toEqual([
      { path: '/colour', message: 'must be string or null or integer' },
    ]);
  });
});
