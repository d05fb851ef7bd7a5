// Pairs after oasdiff's fixtures of allOf, anyOf and oneOf alternatives (data/checker/
// request_property_*_of_*, response_property_*_of_*): alternatives written as `$ref`s to components
// of the same content, so that only their names tell them apart, as oasdiff pairs them.
import { doc, type FixturePair, getBody, type Json, objectOf, postBody, ref } from './fixtures-kit.js';

const named = objectOf({ label: { type: 'string' } });

/**
 * A body that is a composition of two components, the first of which has a property `carrier` that
 * is a composition of two more; `grown` adds a third to each. Every component has the same content.
 */
function composed(keyword: string, grown: boolean, body: (schema: Json) => Json): Json {
  const alternatives = grown ? ['Parcel', 'Letter', 'Crate'] : ['Parcel', 'Letter'];
  const carriers = grown ? ['Courier', 'Post', 'Freight'] : ['Courier', 'Post'];
  const schemas: Json = { Parcel: objectOf({ label: { type: 'string' }, carrier: { [keyword]: carriers.map(ref) } }) };
  for (const name of [...alternatives.slice(1), ...carriers]) schemas[name] = named;
  return doc(body({ [keyword]: alternatives.map(ref) }), schemas);
}

/** The composition before and after a third alternative is added to the body and to `carrier`. */
const versions = (keyword: string, body: (schema: Json) => Json): [Json, Json] => [
  composed(keyword, false, body),
  composed(keyword, true, body),
];

const TESTS: Record<string, string> = {
  anyOf: 'check_request_property_any_of_updated_test',
  oneOf: 'check_request_property_one_of_updated_test',
  allOf: 'check_request_property_all_of_updated_test',
};
const RULE: Record<string, string> = { anyOf: 'any-of', oneOf: 'one-of', allOf: 'all-of' };
const TEST_NAME: Record<string, string> = { anyOf: 'AnyOf', oneOf: 'OneOf', allOf: 'AllOf' };

function compositionPairs(keyword: string): FixturePair[] {
  const rule = RULE[keyword] ?? '';
  const name = TEST_NAME[keyword] ?? '';
  const [small, grown] = versions(keyword, postBody);
  const [smallOut, grownOut] = versions(keyword, getBody);
  const request = TESTS[keyword] ?? '';
  const response = request.replace('request', 'response');
  const added = (subject: string) => [`${subject}-body-${rule}-added`, `${subject}-property-${rule}-added`];
  const removed = (subject: string) => [`${subject}-body-${rule}-removed`, `${subject}-property-${rule}-removed`];
  return [
    {
      title: `${request} TestRequestProperty${name}Added: a third component alternative of the body and of a property`,
      before: small,
      after: grown,
      ids: added('request'),
      checks: 'single',
    },
    {
      title: `${request} TestRequestProperty${name}Removed: the third alternative of the body and of a property removed`,
      before: grown,
      after: small,
      ids: removed('request'),
      checks: 'single',
    },
    {
      title: `${response} TestResponseProperty${name}Added: a third component alternative of the response body and of a property`,
      before: smallOut,
      after: grownOut,
      ids: added('response'),
      checks: 'single',
    },
    {
      title: `${response} TestResponseProperty${name}Removed: the third alternative of the response body and of a property removed`,
      before: grownOut,
      after: smallOut,
      ids: removed('response'),
      checks: 'single',
    },
  ];
}

const [anyOfSmall, anyOfGrown] = versions('anyOf', postBody);
const [oneOfSmall, oneOfGrown] = versions('oneOf', postBody);
const [allOfSmall, allOfGrown] = versions('allOf', postBody);

/** A property that is a oneOf of titled inline enums; `grown` adds one more. */
const graded = (grown: boolean): Json => {
  const grades = [
    { title: 'Standard grades', type: 'string', enum: ['S1', 'S2'] },
    { title: 'Express grades', type: 'string', enum: ['E1', 'E2'] },
  ];
  const schema = composed('oneOf', grown, getBody);
  schema.components.schemas.Letter = objectOf({
    label: { type: 'string' },
    grade: { oneOf: grown ? grades : grades.slice(0, 1) },
  });
  return schema;
};

/** A nullable anyOf whose inline enum alternative becomes a `$ref` to a component of the same enum. */
const roleOf = (asRef: boolean): Json => {
  const role = { type: 'string', enum: ['member', 'owner'] };
  return doc(
    postBody(objectOf({ role: { anyOf: [asRef ? ref('Role') : role, { type: 'string', nullable: true }] } })),
    asRef ? { Role: { ...role, title: 'Role' } } : {},
  );
};

/** A body of two media types, each an anyOf of `Parcel` and `second`, components of equal content. */
const twoMediaTypes = (second: string): Json => {
  const schema = { anyOf: [ref('Parcel'), ref(second)] };
  const document = doc(postBody(schema), { Parcel: named, Letter: named, Crate: named });
  document.paths['/orders'].post.requestBody.content['application/xml'] = { schema };
  return document;
};

export const compositionFixtures: FixturePair[] = [
  ...compositionPairs('anyOf'),
  ...compositionPairs('oneOf'),
  ...compositionPairs('allOf'),
  {
    title:
      'check_breaking_test TestBreaking_RequestPropertyAnyOfRemoved: all checks, an anyOf alternative of a request body removed',
    before: anyOfGrown,
    after: anyOfSmall,
    ids: ['request-body-any-of-removed', 'request-property-any-of-removed'],
    checks: 'all',
  },
  {
    title:
      'check_breaking_test TestBreaking_RequestPropertyOneOfRemoved: all checks, a oneOf alternative of a request body removed',
    before: oneOfGrown,
    after: oneOfSmall,
    ids: ['request-body-one-of-removed', 'request-property-one-of-removed'],
    checks: 'all',
  },
  {
    title:
      'check_breaking_test TestBreaking_RequestPropertyAllOfAdded: all checks, an allOf alternative of a request body added',
    before: allOfSmall,
    after: allOfGrown,
    ids: ['request-body-all-of-added', 'request-property-all-of-added'],
    checks: 'all',
  },
  {
    title:
      'check_breaking_test TestBreaking_RequestPropertyAllOfRemoved: all checks, an allOf alternative of a request body removed',
    before: allOfGrown,
    after: allOfSmall,
    ids: ['request-body-all-of-removed', 'request-property-all-of-removed'],
    checks: 'all',
  },
  {
    title:
      'check_response_property_one_of_updated_test TestResponsePropertyOneOfAdded: a titled inline alternative added beside component ones',
    before: graded(false),
    after: graded(true),
    ids: ['response-body-one-of-added', 'response-property-one-of-added'],
    checks: 'single',
  },
  {
    title:
      'check_request_property_any_of_updated_test TestRequestPropertyAnyOfInlineEnumRefactorToRef: all checks, an inline enum alternative moved to a component',
    before: roleOf(false),
    after: roleOf(true),
    ids: [],
    checks: 'all',
  },
  {
    title:
      'check_request_property_any_of_updated_test TestRequestBodyAnyOfMultiMediaTypeDetails: in two media types, an alternative replaced by a component of the same content',
    before: twoMediaTypes('Letter'),
    after: twoMediaTypes('Crate'),
    ids: ['request-body-any-of-added', 'request-body-any-of-removed'],
    checks: 'single',
  },
];
