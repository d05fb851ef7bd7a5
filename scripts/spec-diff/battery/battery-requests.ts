// The battery's edits of what clients send: parameter schemas, request bodies and their properties,
// each expecting the oasdiff rule that names the change (see battery.ts).
import {
  type BatteryEdit,
  type Change,
  edit,
  type Family,
  family,
  getKey,
  type Json,
  list,
  param,
  patch,
  projectEdit,
  SUNSET_LATER,
  schemas,
  structureEdits,
} from './battery-kit.js';

const update = (s: Json) => schemas(s).ObservabilityDestinationUpdate;
const limit = family((s) => param(list(s), 'limit').schema);
const slug = family((s) => param(list(s), 'slug').schema);
const hash = family((s) => param(getKey(s), 'hash').schema);
const offset = family((s) => param(list(s), 'offset').schema);
const fields = family(
  (s) => param(list(s), 'fields').schema,
  (s) => list(s).parameters.push({ name: 'fields', in: 'query', schema: { type: 'array', items: { type: 'string' } } }),
);
const order = family(
  (s) => param(list(s), 'order').schema,
  (s) => list(s).parameters.push({ name: 'order', in: 'query', schema: { type: 'string', enum: ['asc', 'desc'] } }),
);
const body = family(update);
// A plain-text form of the update, to reach the rules of a scalar body.
const plain = family(
  (s) => patch(s).requestBody.content['text/plain'].schema,
  (s) => (patch(s).requestBody.content['text/plain'] = { schema: { type: 'string' } }),
);
const prop = (name: string) => family((s) => update(s).properties[name]);
const labels = family(
  (s) => update(s).properties.labels,
  (s) => (update(s).properties.labels = { type: 'array', items: { type: 'string', maxLength: 64 } }),
);
const mode = family(
  (s) => update(s).properties.mode,
  (s) => (update(s).properties.mode = { type: 'string', enum: ['fast', 'full'] }),
);
const readOnlyName = family(
  (s) => update(s).properties.name,
  (s) => (update(s).properties.name.readOnly = true),
);
const name = prop('name');
const rate = prop('sampling_rate');
const privacy = prop('privacy_mode');

/** Bounds of a numeric schema, on a subject: `<subject>-max-decreased` and the rest. */
function numericBounds(subject: string, on: Family, setup: Change = () => {}): BatteryEdit[] {
  const at = (id: string) => `${subject}-${id}`;
  const base = (x: Json) => {
    setup(x);
    Object.assign(x, { type: 'number', maximum: 100, minimum: 1 });
  };
  const withExclusive = (x: Json) => {
    base(x);
    Object.assign(x, { exclusiveMaximum: 101, exclusiveMinimum: 0 });
  };
  return [
    on(`${subject}: maximum lowered`, [at('max-decreased')], (x) => (x.maximum = 50), base),
    on(`${subject}: maximum raised`, [at('max-increased')], (x) => (x.maximum = 200), base),
    on(`${subject}: minimum raised`, [at('min-increased')], (x) => (x.minimum = 5), base),
    on(`${subject}: minimum lowered`, [at('min-decreased')], (x) => (x.minimum = 0), base),
    on(
      `${subject}: maximum set where there was none`,
      [at('max-set')],
      (x) => (x.maximum = 100),
      (x) => {
        base(x);
        delete x.maximum;
      },
    ),
    on(
      `${subject}: minimum set where there was none`,
      [at('min-set')],
      (x) => (x.minimum = 1),
      (x) => {
        base(x);
        delete x.minimum;
      },
    ),
    on(`${subject}: exclusiveMaximum set`, [at('exclusive-max-set')], (x) => (x.exclusiveMaximum = 101), base),
    on(`${subject}: exclusiveMinimum set`, [at('exclusive-min-set')], (x) => (x.exclusiveMinimum = 0), base),
    on(
      `${subject}: exclusiveMaximum lowered`,
      [at('exclusive-max-decreased')],
      (x) => (x.exclusiveMaximum = 51),
      withExclusive,
    ),
    on(
      `${subject}: exclusiveMaximum raised`,
      [at('exclusive-max-increased')],
      (x) => (x.exclusiveMaximum = 201),
      withExclusive,
    ),
    on(
      `${subject}: exclusiveMinimum raised`,
      [at('exclusive-min-increased')],
      (x) => (x.exclusiveMinimum = 5),
      withExclusive,
    ),
    on(
      `${subject}: exclusiveMinimum lowered`,
      [at('exclusive-min-decreased')],
      (x) => (x.exclusiveMinimum = -1),
      withExclusive,
    ),
  ];
}

export const BATTERY_REQUESTS: BatteryEdit[] = [
  // Parameter schemas.
  slug("a parameter's type changed", ['request-parameter-type-changed'], (x) => (x.type = 'integer')),
  limit("a parameter's type widened to number", ['request-parameter-type-generalized'], (x) => (x.type = 'number')),
  limit("a parameter's format widened to int64", ['request-parameter-type-generalized'], (x) => (x.format = 'int64')),
  limit("a parameter's maximum lowered", ['request-parameter-max-decreased'], (x) => (x.maximum = 50)),
  limit("a parameter's maximum raised", ['request-parameter-max-increased'], (x) => (x.maximum = 200)),
  limit("a parameter's minimum raised", ['request-parameter-min-increased'], (x) => (x.minimum = 5)),
  limit("a parameter's minimum lowered", ['request-parameter-min-decreased'], (x) => (x.minimum = 0)),
  limit(
    'a maximum set on a parameter that had none',
    ['request-parameter-max-set'],
    (x) => (x.maximum = 100),
    (x) => delete x.maximum,
  ),
  limit(
    'a minimum set on a parameter that had none',
    ['request-parameter-min-set'],
    (x) => (x.minimum = 1),
    (x) => delete x.minimum,
  ),
  limit(
    'an exclusiveMaximum set on a parameter',
    ['request-parameter-exclusive-max-set'],
    (x) => (x.exclusiveMaximum = 101),
  ),
  limit(
    'an exclusiveMinimum set on a parameter',
    ['request-parameter-exclusive-min-set'],
    (x) => (x.exclusiveMinimum = 0),
  ),
  limit(
    "a parameter's exclusiveMaximum lowered",
    ['request-parameter-exclusive-max-decreased'],
    (x) => (x.exclusiveMaximum = 51),
    (x) => (x.exclusiveMaximum = 101),
  ),
  limit(
    "a parameter's exclusiveMaximum raised",
    ['request-parameter-exclusive-max-increased'],
    (x) => (x.exclusiveMaximum = 201),
    (x) => (x.exclusiveMaximum = 101),
  ),
  limit(
    "a parameter's exclusiveMinimum raised",
    ['request-parameter-exclusive-min-increased'],
    (x) => (x.exclusiveMinimum = 5),
    (x) => (x.exclusiveMinimum = 0),
  ),
  limit(
    "a parameter's exclusiveMinimum lowered",
    ['request-parameter-exclusive-min-decreased'],
    (x) => (x.exclusiveMinimum = -1),
    (x) => (x.exclusiveMinimum = 0),
  ),
  slug("a parameter's maxLength lowered", ['request-parameter-max-length-decreased'], (x) => (x.maxLength = 100)),
  slug("a parameter's maxLength raised", ['request-parameter-max-length-increased'], (x) => (x.maxLength = 400)),
  hash('a maxLength set on a parameter that had none', ['request-parameter-max-length-set'], (x) => (x.maxLength = 64)),
  slug("a parameter's minLength raised", ['request-parameter-min-length-increased'], (x) => (x.minLength = 3)),
  slug("a parameter's minLength lowered", ['request-parameter-min-length-decreased'], (x) => (x.minLength = 0)),
  fields(
    "an array parameter's maxItems lowered",
    ['request-parameter-max-items-decreased'],
    (x) => (x.maxItems = 5),
    (x) => (x.maxItems = 10),
  ),
  fields(
    "an array parameter's maxItems raised",
    ['request-parameter-max-items-increased'],
    (x) => (x.maxItems = 20),
    (x) => (x.maxItems = 10),
  ),
  fields('a minItems set on an array parameter', ['request-parameter-min-items-set'], (x) => (x.minItems = 1)),
  fields(
    "an array parameter's minItems raised",
    ['request-parameter-min-items-increased'],
    (x) => (x.minItems = 2),
    (x) => (x.minItems = 1),
  ),
  fields(
    "an array parameter's minItems lowered",
    ['request-parameter-min-items-decreased'],
    (x) => (x.minItems = 1),
    (x) => (x.minItems = 2),
  ),
  hash('a pattern added to a parameter', ['request-parameter-pattern-added'], (x) => (x.pattern = '^[0-9a-f]{64}$')),
  hash(
    "a parameter's pattern changed",
    ['request-parameter-pattern-changed'],
    (x) => (x.pattern = '^[0-9a-fA-F]{64}$'),
    (x) => (x.pattern = '^[0-9a-f]{64}$'),
  ),
  hash(
    "a parameter's pattern removed",
    ['request-parameter-pattern-removed'],
    (x) => delete x.pattern,
    (x) => (x.pattern = '^[0-9a-f]{64}$'),
  ),
  hash(
    "a parameter's pattern opened to anything",
    ['request-parameter-pattern-generalized'],
    (x) => (x.pattern = '.*'),
    (x) => (x.pattern = '^[0-9a-f]{64}$'),
  ),
  slug('a parameter restricted to an enum', ['request-parameter-became-enum'], (x) => (x.enum = ['support-agent'])),
  order("a value removed from a parameter's enum", ['request-parameter-enum-value-removed'], (x) => (x.enum = ['asc'])),
  order("a value added to a parameter's enum", ['request-parameter-enum-value-added'], (x) => x.enum.push('random')),
  order(
    "a value removed from a parameter's x-extensible-enum",
    ['request-parameter-x-extensible-enum-value-removed'],
    (x) => (x['x-extensible-enum'] = ['asc']),
    (x) => {
      delete x.enum;
      x['x-extensible-enum'] = ['asc', 'desc'];
    },
  ),
  limit('a parameter now accepting null', ['request-parameter-became-nullable'], (x) => (x.type = ['integer', 'null'])),
  offset(
    'a parameter no longer accepting null (offset)',
    ['request-parameter-became-not-nullable'],
    (x) => (x.type = 'integer'),
  ),
  limit("a parameter's default changed", ['request-parameter-default-value-changed'], (x) => (x.default = 20)),
  limit(
    'a default given to a parameter',
    ['request-parameter-default-value-added'],
    (x) => (x.default = 50),
    (x) => delete x.default,
  ),
  limit("a parameter's default removed", ['request-parameter-default-value-removed'], (x) => delete x.default),
  // A type array is no list of types (oasdiff detectTypePattern reads its first type only).
  offset(
    'a parameter accepting a string as well',
    ['request-parameter-type-generalized'],
    (x) => (x.type = ['integer', 'string', 'null']),
  ),
  // oasdiff isTypeContained: a type lost from a text parameter breaks nothing.
  offset(
    'a parameter no longer accepting a string',
    ['request-parameter-type-generalized'],
    (x) => (x.type = ['integer', 'null']),
    (x) => (x.type = ['integer', 'string', 'null']),
  ),
  // Request bodies.
  edit(
    'the request body made required',
    ['request-body-became-required'],
    (s) => (patch(s).requestBody.required = true),
    (s) => {
      patch(s).requestBody.required = false;
    },
  ),
  edit(
    'the request body made optional',
    ['request-body-became-optional'],
    (s) => (patch(s).requestBody.required = false),
  ),
  edit(
    "the request body's application/json replaced by another media type",
    ['request-body-media-type-removed', 'request-body-media-type-added'],
    (s) => {
      const content = patch(s).requestBody.content;
      content['application/xml'] = content['application/json'];
      delete content['application/json'];
    },
  ),
  // oasdiff getContentDiff pairs json with its +json form, and no request rule names the new name.
  edit("the request body's application/json given its +json form", [], (s) => {
    const content = patch(s).requestBody.content;
    content['application/merge-patch+json'] = content['application/json'];
    delete content['application/json'];
  }),
  edit('a request media type added', ['request-body-media-type-added'], (s) => {
    const content = patch(s).requestBody.content;
    content['application/merge-patch+json'] = content['application/json'];
  }),
  edit("a request media type's schema removed", ['request-body-media-type-schema-removed'], (s) => {
    delete patch(s).requestBody.content['application/json'].schema;
  }),
  edit(
    'a schema given to a request media type that had none',
    ['request-body-media-type-schema-added'],
    (s) =>
      (patch(s).requestBody.content['application/json'].schema = {
        $ref: '#/components/schemas/ObservabilityDestinationUpdate',
      }),
    (s) => delete patch(s).requestBody.content['application/json'].schema,
  ),
  edit('the request body removed', ['request-body-removed'], (s) => delete patch(s).requestBody),
  edit('a required request body added', ['request-body-added-required'], (s) => {
    getKey(s).requestBody = { required: true, content: { 'application/json': { schema: { type: 'object' } } } };
  }),
  edit('an optional request body added', ['request-body-added-optional'], (s) => {
    getKey(s).requestBody = { content: { 'application/json': { schema: { type: 'object' } } } };
  }),
  edit('the request body wrapped in a oneOf', ['request-body-wrapped-in-one-of'], (s) => {
    patch(s).requestBody.content['application/json'].schema = {
      oneOf: [
        { $ref: '#/components/schemas/ObservabilityDestinationUpdate' },
        { type: 'array', items: { type: 'string' } },
      ],
    };
  }),
  body("the request body's type changed", ['request-body-type-changed'], (x) => (x.type = 'array')),
  body("the request body's type constraint removed", ['request-body-type-generalized'], (x) => delete x.type),
  body('the request body now accepting null', ['request-body-became-nullable'], (x) => (x.type = ['object', 'null'])),
  body(
    'the request body no longer accepting null',
    ['request-body-became-not-nullable'],
    (x) => (x.type = 'object'),
    (x) => (x.type = ['object', 'null']),
  ),
  projectEdit(
    'unknown request properties now refused',
    'error',
    ['project-request-body-additional-properties-refused'],
    (s) => (update(s).additionalProperties = false),
    {
      setup: (s) => delete update(s).additionalProperties,
    },
  ),
  ...structureEdits('request-body', body, ['name', 'enabled', 'config']),
  ...numericBounds('request-body', plain),
  plain(
    "a plain-text body's maxLength lowered",
    ['request-body-max-length-decreased'],
    (x) => (x.maxLength = 500),
    (x) => (x.maxLength = 1000),
  ),
  plain(
    "a plain-text body's maxLength raised",
    ['request-body-max-length-increased'],
    (x) => (x.maxLength = 2000),
    (x) => (x.maxLength = 1000),
  ),
  plain('a maxLength set on a plain-text body', ['request-body-max-length-set'], (x) => (x.maxLength = 1000)),
  plain(
    "a plain-text body's minLength raised",
    ['request-body-min-length-increased'],
    (x) => (x.minLength = 2),
    (x) => (x.minLength = 1),
  ),
  plain(
    "a plain-text body's minLength lowered",
    ['request-body-min-length-decreased'],
    (x) => (x.minLength = 0),
    (x) => (x.minLength = 1),
  ),
  plain('a plain-text body restricted to an enum', ['request-body-became-enum'], (x) => (x.enum = ['pause', 'resume'])),
  plain(
    "a value removed from a plain-text body's enum",
    ['request-body-enum-value-removed'],
    (x) => (x.enum = ['pause']),
    (x) => (x.enum = ['pause', 'resume']),
  ),
  plain('a default given to a plain-text body', ['request-body-default-value-added'], (x) => (x.default = 'pause')),
  plain(
    "a plain-text body's default removed",
    ['request-body-default-value-removed'],
    (x) => delete x.default,
    (x) => (x.default = 'pause'),
  ),
  plain(
    "a plain-text body's default changed",
    ['request-body-default-value-changed'],
    (x) => (x.default = 'resume'),
    (x) => (x.default = 'pause'),
  ),
  plain('a const set on a plain-text body', ['request-body-const-added'], (x) => (x.const = 'pause')),
  plain(
    "a plain-text body's const removed",
    ['request-body-const-removed'],
    (x) => delete x.const,
    (x) => (x.const = 'pause'),
  ),
  plain(
    "a plain-text body's const changed",
    ['request-body-const-changed'],
    (x) => (x.const = 'resume'),
    (x) => (x.const = 'pause'),
  ),
  // oasdiff typeSetWidened: a type array gaining a type is a generalized type, no list of types.
  plain(
    'a plain-text body accepting numbers as well',
    ['request-body-type-generalized'],
    (x) => (x.type = ['string', 'number']),
  ),
  // oasdiff isRequestLooseTypeSwap: a type lost from text is compatible, not a narrowed list.
  plain(
    'a plain-text body no longer accepting numbers',
    ['request-body-type-compatible'],
    (x) => (x.type = 'string'),
    (x) => (x.type = ['string', 'number']),
  ),
  plain(
    'a content schema set on a plain-text body',
    ['request-body-content-schema-added'],
    (x) => (x.contentSchema = { type: 'object' }),
  ),
  plain(
    "a plain-text body's content schema removed",
    ['request-body-content-schema-removed'],
    (x) => delete x.contentSchema,
    (x) => (x.contentSchema = { type: 'object' }),
  ),
  plain(
    "a plain-text body's content media type changed",
    ['request-body-content-media-type-changed'],
    (x) => (x.contentMediaType = 'application/xml'),
    (x) => {
      x.contentMediaType = 'application/json';
    },
  ),
  plain(
    "a plain-text body's content encoding changed",
    ['request-body-content-encoding-changed'],
    (x) => (x.contentEncoding = 'base64'),
    (x) => {
      x.contentEncoding = 'base32';
    },
  ),
  plain(
    'a minItems set on a plain-text list body',
    ['request-body-min-items-set'],
    (x) => (x.minItems = 1),
    (x) => (x.type = 'array'),
  ),
  plain(
    "a plain-text list body's minItems raised",
    ['request-body-min-items-increased'],
    (x) => (x.minItems = 2),
    (x) => Object.assign(x, { type: 'array', minItems: 1 }),
  ),
  plain(
    'prefixItems added to a plain-text list body',
    ['request-body-prefix-items-added'],
    (x) => (x.prefixItems = [{ type: 'string' }]),
    (x) => (x.type = 'array'),
  ),
  plain(
    "a plain-text list body's prefixItems removed",
    ['request-body-prefix-items-removed'],
    (x) => delete x.prefixItems,
    (x) => {
      Object.assign(x, { type: 'array', prefixItems: [{ type: 'string' }] });
    },
  ),
  plain(
    'contains added to a plain-text list body',
    ['request-body-contains-added'],
    (x) => (x.contains = { const: 'pause' }),
    (x) => (x.type = 'array'),
  ),
  plain(
    "a plain-text list body's contains removed",
    ['request-body-contains-removed'],
    (x) => delete x.contains,
    (x) => {
      Object.assign(x, { type: 'array', contains: { const: 'pause' } });
    },
  ),
  plain(
    "a plain-text list body's minContains raised",
    ['request-body-min-contains-increased'],
    (x) => (x.minContains = 2),
    (x) => {
      Object.assign(x, { type: 'array', contains: { const: 'pause' }, minContains: 1, maxContains: 5 });
    },
  ),
  plain(
    "a plain-text list body's maxContains lowered",
    ['request-body-max-contains-decreased'],
    (x) => (x.maxContains = 2),
    (x) => {
      Object.assign(x, { type: 'array', contains: { const: 'pause' }, minContains: 1, maxContains: 5 });
    },
  ),
  plain(
    'unevaluatedItems refused on a plain-text list body',
    ['request-body-unevaluated-items-added'],
    (x) => (x.unevaluatedItems = false),
    (x) => (x.type = 'array'),
  ),
  // Request properties.
  edit('a new required request property', ['new-required-request-property'], (s) => {
    update(s).properties.owner = { type: 'string' };
    update(s).required = ['owner'];
  }),
  edit('a new required request property with a default', ['new-required-request-property-with-default'], (s) => {
    update(s).properties.owner = { type: 'string', default: 'me' };
    update(s).required = ['owner'];
  }),
  edit(
    'a new optional request property',
    ['new-optional-request-property'],
    (s) => (update(s).properties.notes = { type: 'string', maxLength: 100 }),
  ),
  edit(
    'a request property made required',
    ['request-property-became-required'],
    (s) => (update(s).required = ['name']),
  ),
  edit(
    'a request property with a default made required',
    ['request-property-became-required-with-default'],
    (s) => (update(s).required = ['privacy_mode']),
    (s) => {
      update(s).properties.privacy_mode.default = false;
    },
  ),
  edit(
    'a request property made optional',
    ['request-property-became-optional'],
    (s) => delete update(s).required,
    (s) => (update(s).required = ['name']),
  ),
  edit('a request property removed', ['request-property-removed'], (s) => delete update(s).properties.privacy_mode),
  prop('enabled')("a request property's type changed", ['request-property-type-changed'], (x) => (x.type = 'string')),
  name('format: uri added to a request property', ['request-property-type-changed'], (x) => (x.format = 'uri')),
  rate("a request property's format removed", ['request-property-type-generalized'], (x) => delete x.format),
  name(
    'a request property now accepting null',
    ['request-property-became-nullable'],
    (x) => (x.type = ['string', 'null']),
  ),
  edit('a request property no longer accepting null', ['request-property-became-not-nullable'], (s) => {
    update(s).properties.api_key_hashes = { $ref: '#/components/schemas/ApiKeyHashList' };
  }),
  ...numericBounds('request-property', rate),
  name("a request property's maxLength lowered", ['request-property-max-length-decreased'], (x) => (x.maxLength = 100)),
  name("a request property's maxLength raised", ['request-property-max-length-increased'], (x) => (x.maxLength = 512)),
  name(
    'a maxLength set on a request property that had none',
    ['request-property-max-length-set'],
    (x) => (x.maxLength = 256),
    (x) => delete x.maxLength,
  ),
  name("a request property's minLength raised", ['request-property-min-length-increased'], (x) => (x.minLength = 3)),
  name("a request property's minLength lowered", ['request-property-min-length-decreased'], (x) => (x.minLength = 0)),
  labels(
    "a request array's minItems raised",
    ['request-property-min-items-increased'],
    (x) => (x.minItems = 2),
    (x) => (x.minItems = 1),
  ),
  labels('a minItems set on a request array', ['request-property-min-items-set'], (x) => (x.minItems = 1)),
  name('a pattern added to a request property', ['request-property-pattern-added'], (x) => (x.pattern = '^[a-z ]+$')),
  name(
    "a request property's pattern changed",
    ['request-property-pattern-changed'],
    (x) => (x.pattern = '^[a-z0-9 ]+$'),
    (x) => (x.pattern = '^[a-z ]+$'),
  ),
  name(
    "a request property's pattern removed",
    ['request-property-pattern-removed'],
    (x) => delete x.pattern,
    (x) => (x.pattern = '^[a-z ]+$'),
  ),
  name(
    "a request property's pattern opened to anything",
    ['request-property-pattern-generalized'],
    (x) => (x.pattern = '.*'),
    (x) => (x.pattern = '^[a-z ]+$'),
  ),
  mode(
    "a value removed from a request property's enum",
    ['request-property-enum-value-removed'],
    (x) => (x.enum = ['fast']),
  ),
  mode("a value added to a request property's enum", ['request-property-enum-value-added'], (x) =>
    x.enum.push('sampled'),
  ),
  name('a request property restricted to an enum', ['request-property-became-enum'], (x) => (x.enum = ['Langfuse'])),
  mode(
    "a value removed from a request property's x-extensible-enum",
    ['request-property-x-extensible-enum-value-removed'],
    (x) => (x['x-extensible-enum'] = ['fast']),
    (x) => {
      delete x.enum;
      x['x-extensible-enum'] = ['fast', 'full'];
    },
  ),
  privacy(
    'a default given to a request property',
    ['request-property-default-value-added'],
    (x) => (x.default = false),
  ),
  privacy(
    "a request property's default removed",
    ['request-property-default-value-removed'],
    (x) => delete x.default,
    (x) => (x.default = false),
  ),
  privacy(
    "a request property's default changed",
    ['request-property-default-value-changed'],
    (x) => (x.default = true),
    (x) => (x.default = false),
  ),
  mode('const added to a request property', ['request-property-const-added'], (x) => (x.const = 'fast')),
  mode(
    "a request property's const removed",
    ['request-property-const-removed'],
    (x) => delete x.const,
    (x) => (x.const = 'fast'),
  ),
  mode(
    "a request property's const changed",
    ['request-property-const-changed'],
    (x) => (x.const = 'full'),
    (x) => (x.const = 'fast'),
  ),
  // oasdiff typeSetWidened: a type array gaining a type is a generalized type, no list of types.
  labels(
    'a request array accepting a string as well',
    ['request-property-type-generalized'],
    (x) => (x.type = ['array', 'string']),
  ),
  // oasdiff TestRequestPropertyTypeUnionNarrowedCheck: a JSON type array losing a type is changed.
  labels(
    'a request array no longer accepting a string',
    ['request-property-type-changed'],
    (x) => (x.type = 'array'),
    (x) => (x.type = ['array', 'string']),
  ),
  labels(
    'prefixItems added to a request array',
    ['request-property-prefix-items-added'],
    (x) => (x.prefixItems = [{ type: 'string' }]),
  ),
  labels(
    "a request array's prefixItems removed",
    ['request-property-prefix-items-removed'],
    (x) => delete x.prefixItems,
    (x) => (x.prefixItems = [{ type: 'string' }]),
  ),
  labels(
    'contains added to a request array',
    ['request-property-contains-added'],
    (x) => (x.contains = { const: 'prod' }),
  ),
  labels(
    "a request array's contains removed",
    ['request-property-contains-removed'],
    (x) => delete x.contains,
    (x) => (x.contains = { const: 'prod' }),
  ),
  labels(
    "a request array's minContains lowered",
    ['request-property-min-contains-decreased'],
    (x) => (x.minContains = 1),
    (x) => {
      Object.assign(x, { contains: { const: 'prod' }, minContains: 2, maxContains: 5 });
    },
  ),
  labels(
    "a request array's maxContains raised",
    ['request-property-max-contains-increased'],
    (x) => (x.maxContains = 9),
    (x) => {
      Object.assign(x, { contains: { const: 'prod' }, minContains: 2, maxContains: 5 });
    },
  ),
  labels(
    'unevaluatedItems refused in a request array',
    ['request-property-unevaluated-items-added'],
    (x) => (x.unevaluatedItems = false),
  ),
  labels(
    "a request array's unevaluatedItems allowed again",
    ['request-property-unevaluated-items-removed'],
    (x) => delete x.unevaluatedItems,
    (x) => (x.unevaluatedItems = false),
  ),
  projectEdit(
    'a minLength set on a request property that had none',
    'error',
    ['project-request-property-min-length-set'],
    (s) => (update(s).properties.name.minLength = 1),
    { setup: (s) => delete update(s).properties.name.minLength },
  ),
  edit(
    "a request property's propertyNames pattern changed",
    ['request-property-pattern-changed'],
    (s) => (update(s).properties.tags.propertyNames.pattern = '^[a-z0-9_]+$'),
    (s) => {
      update(s).properties.tags = { type: 'object', propertyNames: { pattern: '^[a-z_]+$' } };
    },
  ),
  projectEdit(
    'uniqueItems added to a request array',
    'error',
    ['project-request-property-unique-items-added'],
    (s) => (update(s).properties.labels.uniqueItems = true),
    {
      setup: (s) => (update(s).properties.labels = { type: 'array', items: { type: 'string' } }),
    },
  ),
  name(
    'a content schema set on a request property',
    ['request-property-content-schema-added'],
    (x) => (x.contentSchema = { type: 'object' }),
  ),
  name(
    "a request property's content schema removed",
    ['request-property-content-schema-removed'],
    (x) => delete x.contentSchema,
    (x) => (x.contentSchema = { type: 'object' }),
  ),
  name(
    "a request property's content media type changed",
    ['request-property-content-media-type-changed'],
    (x) => (x.contentMediaType = 'text/html'),
    (x) => {
      x.contentMediaType = 'text/plain';
    },
  ),
  name(
    "a request property's content encoding changed",
    ['request-property-content-encoding-changed'],
    (x) => (x.contentEncoding = 'base64'),
    (x) => {
      x.contentEncoding = 'base32';
    },
  ),
  ...structureEdits(
    'request-property',
    family(
      (s) => update(s).properties.filter,
      (s) => (update(s).properties.filter = { type: 'object' }),
    ),
    ['name', 'enabled', 'config'],
  ),
  name('a request property deprecated', ['request-property-deprecated'], (x) => (x.deprecated = true)),
  name('a request property deprecated with a sunset', ['request-property-deprecated-with-sunset'], (x) =>
    Object.assign(x, { deprecated: true, 'x-sunset': SUNSET_LATER }),
  ),
  name(
    'a deprecated request property reactivated',
    ['request-property-reactivated'],
    (x) => delete x.deprecated,
    (x) => (x.deprecated = true),
  ),
  name(
    'a request property made beta',
    ['request-property-stability-decreased'],
    (x) => (x['x-stability-level'] = 'beta'),
  ),
  name(
    'a beta request property made stable',
    ['request-property-stability-increased'],
    (x) => (x['x-stability-level'] = 'stable'),
    (x) => (x['x-stability-level'] = 'beta'),
  ),
  name(
    'an optional request property made read-only',
    ['request-optional-property-became-read-only'],
    (x) => (x.readOnly = true),
  ),
  name(
    'an optional request property no longer read-only',
    ['request-optional-property-became-not-read-only'],
    (x) => delete x.readOnly,
    (x) => (x.readOnly = true),
  ),
  name(
    'an optional request property made write-only',
    ['request-optional-property-became-write-only'],
    (x) => (x.writeOnly = true),
  ),
  name(
    'an optional request property no longer write-only',
    ['request-optional-property-became-not-write-only'],
    (x) => delete x.writeOnly,
    (x) => (x.writeOnly = true),
  ),
  edit(
    'a required request property made read-only',
    ['request-required-property-became-read-only'],
    (s) => (update(s).properties.name.readOnly = true),
    (s) => (update(s).required = ['name']),
  ),
  edit(
    'a required request property made write-only',
    ['request-required-property-became-write-only'],
    (s) => (update(s).properties.name.writeOnly = true),
    (s) => (update(s).required = ['name']),
  ),
  readOnlyName(
    "a read-only request property's maxLength lowered",
    ['request-read-only-property-max-length-decreased'],
    (x) => (x.maxLength = 100),
  ),
  readOnlyName(
    "a read-only request property's enum value removed",
    ['request-read-only-property-enum-value-removed'],
    (x) => (x.enum = ['a']),
    (x) => (x.enum = ['a', 'b']),
  ),
  readOnlyName(
    "a read-only request property's minimum raised",
    ['request-read-only-property-min-increased'],
    (x) => (x.minimum = 2),
    (x) => (x.minimum = 1),
  ),
];
