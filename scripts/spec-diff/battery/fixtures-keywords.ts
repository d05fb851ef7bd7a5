// Pairs after oasdiff's fixtures of single keywords read its own way: patterns, on read-only
// properties of a request too (data/pattern-*.yaml), an empty pattern
// (data/checker/request_property_pattern_added_or_changed_*), and a parameter's maxItems written on
// its items (data/checker/request_parameter_max_items_updated_*).
import { doc, type FixturePair, type Json, objectOf, withParameters } from './fixtures-kit.js';

/** POST /shipments taking and answering `Shipment`, whose read-only `placedAt` has `pattern`. */
const shipment = (pattern?: string, nested = false): Json => {
  const placedAt = { type: 'string', readOnly: true, ...(pattern !== undefined && { pattern }) };
  const fields = { placedAt, id: { type: 'string', readOnly: true }, name: { type: 'string' } };
  const schema = nested ? objectOf({ data: objectOf(fields) }) : objectOf(fields, { required: ['name'] });
  const body = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Shipment' } } } };
  return doc(
    {
      '/shipments': {
        post: {
          operationId: 'createShipment',
          requestBody: { ...body, required: true },
          responses: { '200': { description: 'OK', ...body } },
        },
      },
    },
    { Shipment: schema },
  );
};

/** POST /notes taking a body whose `text` has `pattern` (an empty one too). */
const note = (pattern: string): Json =>
  doc({
    '/notes': {
      post: {
        operationId: 'createNote',
        requestBody: {
          content: { 'application/json': { schema: objectOf({ text: { type: 'string', pattern } }) } },
        },
        responses: { '200': { description: 'OK' } },
      },
    },
  });

/** GET /orders with a query array `tags` whose items carry maxItems. */
const tags = (maxItems: number): Json =>
  doc(withParameters([{ in: 'query', name: 'tags', schema: { type: 'array', items: { type: 'string', maxItems } } }]));

export const keywordFixtures: FixturePair[] = [
  {
    title: 'check_breaking_test TestBreaking_AddPattern: all checks, a pattern added to a read-only request property',
    before: shipment(),
    after: shipment('^[a-z]+$'),
    ids: ['request-property-pattern-added'],
    checks: 'all',
  },
  {
    title: 'check_breaking_test TestBreaking_AddPatternRecursive: all checks, the same one level down',
    before: shipment(undefined, true),
    after: shipment('^[a-z]+$', true),
    ids: ['request-property-pattern-added'],
    checks: 'all',
  },
  {
    title: 'check_breaking_test TestBreaking_ModifyPattern: all checks, the pattern of a read-only property changed',
    before: shipment('^[a-z]+$'),
    after: shipment('.+'),
    ids: ['request-property-pattern-changed'],
    checks: 'all',
  },
  {
    title: 'check_breaking_test TestBreaking_DeletePatten: all checks, the pattern of a read-only property removed',
    before: shipment('^[a-z]+$'),
    after: shipment(),
    ids: [],
    checks: 'all',
  },
  {
    title: 'check_breaking_test TestBreaking_ModifyPatternToAnyString: all checks, a pattern widened to .*',
    before: shipment('^[a-z]+$'),
    after: shipment('.*'),
    ids: [],
    checks: 'all',
  },
  {
    title:
      'check_request_property_pattern_added_or_changed_test TestRequestPropertyPatternAdded: an empty pattern made a pattern',
    before: note(''),
    after: note('^\\w+$'),
    ids: ['request-property-pattern-added'],
    checks: 'single',
  },
  {
    title:
      'check_request_property_pattern_added_or_changed_test TestRequestPropertyPatternRemoved: a pattern made empty',
    before: note('^\\w+$'),
    after: note(''),
    ids: ['request-property-pattern-removed'],
    checks: 'single',
  },
  {
    title:
      "check_request_parameters_max_items_updated_test TestRequestParameterMaxItemsIncreased: the maxItems of a query array's items raised",
    before: tags(10),
    after: tags(20),
    ids: ['request-parameter-max-items-increased'],
    checks: 'single',
  },
  {
    title:
      "check_request_parameters_max_items_updated_test TestRequestParameterMaxItemsDecreased: the maxItems of a query array's items lowered",
    before: tags(20),
    after: tags(10),
    ids: ['request-parameter-max-items-decreased'],
    checks: 'single',
  },
];
