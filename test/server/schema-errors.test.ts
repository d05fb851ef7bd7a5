// The field errors a value earns against a schema of openapi.yaml, as a 400 lists them: first the
// update body of a destination (filter rules, key allowlist, headers), then small schemas for the
// shapes the explanation handles that the contract does not use today.
import { describe, expect, it } from 'vitest';
import { createSpecAjv, type JsonObject, loadSpec, type OpenApiDocument } from '../../server/spec.js';
import { schemaExplainer } from '../../server/validation/schema-errors.js';

describe('the update body of a destination', () => {
  const spec = loadSpec();
  const explainer = schemaExplainer(spec, createSpecAjv(spec));
  const UPDATE = '#/components/schemas/ObservabilityDestinationUpdate';
  const errorsOf = (body: unknown) => explainer.explain(UPDATE, body, '/body');
  const ruleErrors = (rule: unknown) => errorsOf({ filter_rules: { groups: [{ rules: [rule] }] } });
  const RULE = '/body/filter_rules/groups/0/rules/0';
  const FIELDS =
    'model, provider, session_id, user_id, api_key_name, finish_reason, input, output, total_cost, total_tokens, prompt_tokens, completion_tokens';

  it('has nothing to say about a valid body', () => {
    expect(
      errorsOf({ name: 'Langfuse', filter_rules: { groups: [{ rules: [{ field: 'model', operator: 'exists' }] }] } }),
    ).toEqual([]);
  });

  it('names a body that is not an object once, whatever it holds', () => {
    expect(errorsOf([{ name: 5 }])).toEqual([{ path: '/body', message: 'must be object' }]);
    expect(errorsOf('name')).toEqual([{ path: '/body', message: 'must be object' }]);
  });

  it('names an unknown property and a bad value side by side', () => {
    expect(errorsOf({ sampling_rate: 5, colour: 'red' })).toEqual([
      { path: '/body/colour', message: 'is not a known property' },
      { path: '/body/sampling_rate', message: 'must be <= 1' },
    ]);
  });

  it('says a rule must be an object when it is null, once and not once per kind of rule', () => {
    expect(ruleErrors(null)).toEqual([{ path: RULE, message: 'must be object' }]);
  });

  it('explains an empty key allowlist by the list rule, and a string by the types it may have', () => {
    expect(errorsOf({ api_key_hashes: [] })).toEqual([
      { path: '/body/api_key_hashes', message: 'must NOT have fewer than 1 items' },
    ]);
    expect(errorsOf({ api_key_hashes: 'abc' })).toEqual([
      { path: '/body/api_key_hashes', message: 'must be array or null' },
    ]);
  });

  it('names a header by its name when the name is not a valid header name, and a header value that is not a string', () => {
    expect(errorsOf({ config: { headers: { 'X Team': 'token', 'X-Count': 5 } } })).toEqual([
      {
        path: '/body/config/headers/X Team',
        message: 'must match pattern "^[A-Za-z0-9!#$%&\'*+.^_`|~-]{1,256}$"',
      },
      { path: '/body/config/headers/X-Count', message: 'must be string' },
    ]);
  });

  it('names each of two headers whose names start alike, the errors of one never taken for the other', () => {
    expect(errorsOf({ config: { headers: { 'X-A': 5, 'X-AB': 6 } } })).toEqual([
      { path: '/body/config/headers/X-A', message: 'must be string' },
      { path: '/body/config/headers/X-AB', message: 'must be string' },
    ]);
  });

  it('says the operator of a rule is required when it is missing, and nothing about a value it cannot judge', () => {
    expect(ruleErrors({ field: 'model', value: 1 })).toEqual([{ path: `${RULE}/operator`, message: 'is required' }]);
  });

  it('judges a rule by the kind its operator selects, saying so for what depends on the operator only', () => {
    expect(ruleErrors({ field: 'colour', operator: 'gt', value: 1, negate: true })).toEqual([
      { path: `${RULE}/negate`, message: 'is not allowed with operator gt' },
      { path: `${RULE}/field`, message: `must be one of: ${FIELDS}` },
    ]);
    expect(ruleErrors({ field: 'model', operator: 'contains', value: 3 })).toEqual([
      { path: `${RULE}/value`, message: 'must be string with operator contains' },
    ]);
  });

  it('with an unknown operator, names the operators there are and what every kind of rule agrees on, nothing else', () => {
    expect(ruleErrors({ field: 'colour', operator: 'like', value: {}, negate: true })).toEqual([
      {
        path: `${RULE}/operator`,
        message:
          'must be one of: gt, lt, gte, lte, contains, not_contains, starts_with, ends_with, regex, equals, not_equals, exists, not_exists',
      },
      { path: `${RULE}/field`, message: `must be one of: ${FIELDS}` },
    ]);
  });

  it('refuses a pointer that leads to no schema, naming it', () => {
    expect(() => explainer.explain('#/components/schemas/Nothing', 1, '/body')).toThrow(
      new Error('openapi.yaml has no schema at #/components/schemas/Nothing'),
    );
  });
});

describe('schemas of other shapes', () => {
  const schemas: Record<string, JsonObject> = {
    // A nullable number.
    Limit: { oneOf: [{ type: 'number', minimum: 0 }, { type: 'null' }] },
    // A branch without a type admits a value of any type.
    Mode: { oneOf: [{ const: 'auto' }, { type: 'integer', minimum: 1 }] },
    Payment: {
      oneOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['method'],
          properties: {
            // Declared first and an enum in the other branch, yet not what tells them apart.
            currency: { type: 'string', minLength: 3, maxLength: 3 },
            method: { enum: ['card'] },
            number: { type: 'string' },
            amount: { type: 'number', maximum: 1000 },
            reference: { type: 'string', maxLength: 10 },
          },
        },
        {
          type: 'object',
          additionalProperties: false,
          required: ['method'],
          dependentRequired: { iban: ['bic'] },
          properties: {
            currency: { enum: ['EUR'] },
            method: { enum: ['transfer'] },
            iban: { type: 'string' },
            bic: { type: 'string' },
            amount: { type: 'number' },
            reference: { type: 'string', maxLength: 10 },
          },
        },
      ],
    },
    // `speed` is an enum in two kinds of shipping of three: only `carrier` tells all three apart.
    Shipping: {
      oneOf: [
        { type: 'object', properties: { speed: { enum: ['standard', 'express'] }, carrier: { enum: ['post'] } } },
        { type: 'object', properties: { speed: { enum: ['same_day'] }, carrier: { enum: ['courier'] } } },
        { type: 'object', properties: { carrier: { enum: ['pickup'] }, store: { type: 'string' } } },
      ],
    },
    // Two kinds of parcel that share the enum of their size: the size tells neither apart.
    Parcel: {
      oneOf: [
        {
          type: 'object',
          required: ['size'],
          properties: { size: { enum: ['small', 'large'] }, weight: { type: 'number' } },
        },
        {
          type: 'object',
          required: ['size'],
          properties: { size: { enum: ['small', 'large'] }, volume: { type: 'number' } },
        },
      ],
    },
    // Text, a list of texts, or texts by language.
    Label: {
      type: ['string', 'array', 'object'],
      minLength: 2,
      maxItems: 2,
      items: { type: 'string', minLength: 2 },
      additionalProperties: { type: 'string', minLength: 2 },
    },
    Pair: { type: 'array', minItems: 2 },
    Code: { type: 'string', properties: { digits: { type: 'integer' } } },
    Tags: { allOf: [{ type: 'object', propertyNames: { pattern: '^[a-z]+$' } }, { maxProperties: 2 }] },
    Person: { allOf: [{ properties: { name: { type: 'string' } } }, { required: ['name'] }] },
    Contact: {
      anyOf: [
        { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] },
        { type: 'object', properties: { phone: { type: 'string' } }, required: ['phone'] },
      ],
    },
  };
  const spec = {
    openapi: '3.1.0',
    info: { title: 'Shapes', version: '1' },
    servers: [],
    paths: {},
    components: { schemas, responses: {}, securitySchemes: {} },
  } satisfies OpenApiDocument;
  const explainer = schemaExplainer(spec, createSpecAjv(spec));
  const errorsOf = (name: string, value: unknown) => explainer.explain(`#/components/schemas/${name}`, value, '/x');

  it('explains a nullable number by its number rules, an integer included, and anything else by the types it may have', () => {
    expect(errorsOf('Limit', -1)).toEqual([{ path: '/x', message: 'must be >= 0' }]);
    expect(errorsOf('Limit', -2.5)).toEqual([{ path: '/x', message: 'must be >= 0' }]);
    expect(errorsOf('Limit', 'many')).toEqual([{ path: '/x', message: 'must be number or null' }]);
    expect(errorsOf('Limit', 3)).toEqual([]);
  });

  it('lets a branch without a type explain a value that no typed branch admits', () => {
    expect(errorsOf('Mode', 'manual')).toEqual([{ path: '/x', message: 'must be equal to constant' }]);
    expect(errorsOf('Mode', null)).toEqual([{ path: '/x', message: 'must be equal to constant' }]);
  });

  it('gives every failing branch its say when several admit the value and nothing tells them apart', () => {
    expect(errorsOf('Mode', 0)).toEqual([
      { path: '/x', message: 'must be equal to constant' },
      { path: '/x', message: 'must be >= 1' },
    ]);
  });

  it('tells branches apart by the one property that is an enum in every branch', () => {
    expect(errorsOf('Payment', { method: 'card', number: 5, amount: 5000, reference: 'r'.repeat(11), cvc: 1 })).toEqual(
      [
        { path: '/x/cvc', message: 'is not allowed with method card' },
        { path: '/x/number', message: 'must be string with method card' },
        { path: '/x/amount', message: 'must be <= 1000 with method card' },
        { path: '/x/reference', message: 'must NOT have more than 10 characters' },
      ],
    );
    expect(errorsOf('Shipping', { carrier: 'pickup', store: 5 })).toEqual([
      { path: '/x/store', message: 'must be string with carrier pickup' },
    ]);
  });

  it('does not tell branches apart by a property whose enum they all share, and says what both branches say once', () => {
    expect(errorsOf('Parcel', { size: 'huge' })).toEqual([
      { path: '/x/size', message: 'must be one of: small, large' },
    ]);
  });

  it('states a failure of the value as a whole without naming the branch', () => {
    expect(errorsOf('Payment', { method: 'transfer', iban: 'DE00' })).toEqual([
      { path: '/x', message: 'must have property bic when property iban is present' },
    ]);
  });

  it('with no branch selected, explains only the properties that every branch declares alike', () => {
    expect(errorsOf('Payment', { method: 'cash', amount: 'ten', reference: 'r'.repeat(11), number: 5 })).toEqual([
      { path: '/x/method', message: 'must be one of: card, transfer' },
      { path: '/x/reference', message: 'must NOT have more than 10 characters' },
    ]);
    expect(errorsOf('Payment', { amount: 1 })).toEqual([{ path: '/x/method', message: 'is required' }]);
  });

  it('explains the items of a list, and the values of a map, each under its own path', () => {
    expect(errorsOf('Label', ['a', 'b', 'c'])).toEqual([
      { path: '/x', message: 'must NOT have more than 2 items' },
      { path: '/x/0', message: 'must NOT have fewer than 2 characters' },
      { path: '/x/1', message: 'must NOT have fewer than 2 characters' },
      { path: '/x/2', message: 'must NOT have fewer than 2 characters' },
    ]);
    expect(errorsOf('Label', { en: 'a' })).toEqual([
      { path: '/x/en', message: 'must NOT have fewer than 2 characters' },
    ]);
    expect(errorsOf('Label', 'a')).toEqual([{ path: '/x', message: 'must NOT have fewer than 2 characters' }]);
  });

  it('explains a list whose schema says nothing of its items by the list rules alone', () => {
    expect(errorsOf('Pair', [1])).toEqual([{ path: '/x', message: 'must NOT have fewer than 2 items' }]);
  });

  it('names a value of the wrong type once, not field by field', () => {
    expect(errorsOf('Code', { digits: 'x' })).toEqual([{ path: '/x', message: 'must be string' }]);
  });

  it("reports an allOf with the validator's own errors, at any depth, and a bad property name once", () => {
    expect(errorsOf('Tags', { Urgent: 1, b: 2, c: 3 })).toEqual([
      { path: '/x/Urgent', message: 'must match pattern "^[a-z]+$"' },
      { path: '/x', message: 'must NOT have more than 2 properties' },
    ]);
    expect(errorsOf('Person', { name: 5 })).toEqual([{ path: '/x/name', message: 'must be string' }]);
  });

  it("reports an anyOf with the validator's own errors, at any depth", () => {
    expect(errorsOf('Contact', { email: 'nope' })).toEqual([
      { path: '/x/email', message: 'must match format "email"' },
      { path: '/x/phone', message: 'is required' },
      { path: '/x', message: 'must match a schema in anyOf' },
    ]);
  });
});
