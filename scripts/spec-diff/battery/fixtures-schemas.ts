// Pairs after oasdiff's fixtures of schemas reached through other schemas: a map's values
// (additionalProperties), and the keywords whose empty or nested forms oasdiff reads its own way.
import { doc, type FixturePair, getBody, type Json, objectOf, ref } from './fixtures-kit.js';

/** A map of string to `Entry`, answered by GET /orders; `entry` is Entry's schema. */
const mapOf = (entry: Json, embedded = false): Json => {
  const map = { type: 'object', title: 'Ledger', additionalProperties: ref('Entry') };
  return doc(getBody(embedded ? objectOf({ ledger: map }) : map), { Entry: entry });
};

const entry = (required: string[], amount = 'integer') =>
  objectOf({ id: { type: 'integer' }, amount: { type: amount } }, { required });

export const schemaFixtures: FixturePair[] = [
  {
    title:
      'check_sub_schema_traversal_test TestAdditionalPropertiesTraversalDeletedRequiredProperty: a required property of a map value removed',
    before: mapOf(entry(['id', 'amount'])),
    after: mapOf(objectOf({ id: { type: 'integer' } }, { required: ['id'] })),
    ids: ['response-required-property-removed'],
    checks: 'single',
  },
  {
    title:
      'check_sub_schema_traversal_test TestAdditionalPropertiesTraversalAddedRequiredProperty: a required property of a map value added',
    before: mapOf(objectOf({ id: { type: 'integer' } }, { required: ['id'] })),
    after: mapOf(entry(['id', 'amount'])),
    ids: ['response-required-property-added'],
    checks: 'single',
  },
  {
    title:
      'check_response_property_type_changed_test TestResponseAdditionalPropertyTypeChangedCheck: a property of a map value from integer to string',
    before: mapOf(entry([])),
    after: mapOf(entry([], 'string')),
    ids: ['response-property-type-changed'],
    checks: 'single',
  },
  {
    title:
      'check_response_property_type_changed_test TestResponseEmbeddedAdditionalPropertyTypeChangedCheck: the same, the map a property of the body',
    before: mapOf(entry([]), true),
    after: mapOf(entry([], 'string'), true),
    ids: ['response-property-type-changed'],
    checks: 'single',
  },
];
