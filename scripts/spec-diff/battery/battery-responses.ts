// The battery's edits of what clients receive: statuses, media types, headers, response bodies and
// their properties, each expecting the oasdiff rule that names the change (see battery.ts).
import {
  type BatteryEdit,
  edit,
  family,
  getKey,
  type Json,
  list,
  SUNSET_LATER,
  schemas,
  structureEdits,
} from './battery-kit.js';

const apiKey = (s: Json) => schemas(s).ApiKey;
const ok = (s: Json) => getKey(s).responses['200'];
const body = family((s) => schemas(s).ApiKeyResponse);
// A plain-text form of the key's answer, to reach the rules of a scalar body.
const plain = family(
  (s) => ok(s).content['text/plain'].schema,
  (s) => (ok(s).content['text/plain'] = { schema: { type: 'string' } }),
);
const prop = (name: string) => family((s) => apiKey(s).properties[name]);
const label = prop('label');
const hash = prop('hash');
const usage = prop('usage');
const limitReset = prop('limit_reset');
const scopes = family(
  (s) => apiKey(s).properties.scopes,
  (s) => {
    apiKey(s).properties.scopes = { type: 'array', items: { type: 'string' }, minItems: 1 };
    apiKey(s).required.push('scopes');
  },
);
const score = family(
  (s) => apiKey(s).properties.score,
  (s) => {
    apiKey(s).properties.score = { oneOf: [{ type: 'integer' }, { type: 'boolean' }] };
    apiKey(s).required.push('score');
  },
);
const nested = family(
  (s) => apiKey(s).properties.owner,
  (s) =>
    (apiKey(s).properties.owner = {
      type: 'object',
      properties: { id: { type: 'string' }, email: { type: 'string' } },
    }),
);
const retryAfter = family((s) => s.components.headers.RetryAfter);
const keyHeaders = family((s) => ok(s).headers);
const notRequired = (s: Json, name: string) =>
  (apiKey(s).required = apiKey(s).required.filter((n: string) => n !== name));

export const BATTERY_RESPONSES: BatteryEdit[] = [
  // Statuses and media types.
  edit('a success status replaced', ['response-success-status-removed', 'response-success-status-added'], (s) => {
    getKey(s).responses['203'] = ok(s);
    delete getKey(s).responses['200'];
  }),
  edit(
    'an error status added',
    ['response-non-success-status-added'],
    (s) => (getKey(s).responses['410'] = { ...getKey(s).responses['404'] }),
  ),
  edit('an error status removed', ['response-non-success-status-removed'], (s) => delete getKey(s).responses['403']),
  edit("a response's media type replaced", ['response-media-type-removed', 'response-media-type-added'], (s) => {
    const content = ok(s).content;
    content['application/xml'] = content['application/json'];
    delete content['application/json'];
  }),
  // oasdiff TestSpecializeMediaTypeName: json paired with its +json form, a specialized name.
  edit("a response's media type given its +json form", ['response-media-type-name-specialized'], (s) => {
    const content = ok(s).content;
    content['application/vnd.api+json'] = content['application/json'];
    delete content['application/json'];
  }),
  edit('a response schema removed while its media type stays', ['response-body-media-type-schema-removed'], (s) => {
    delete ok(s).content['application/json'].schema;
  }),
  edit(
    'a schema given to a response media type that had none',
    ['response-body-media-type-schema-added'],
    (s) => (ok(s).content['application/json'].schema = { $ref: '#/components/schemas/ApiKeyResponse' }),
    (s) => delete ok(s).content['application/json'].schema,
  ),
  edit('the response body wrapped in a oneOf', ['response-body-wrapped-in-one-of'], (s) => {
    ok(s).content['application/json'].schema = {
      oneOf: [{ $ref: '#/components/schemas/ApiKeyResponse' }, { type: 'array', items: { type: 'string' } }],
    };
  }),
  // Headers.
  keyHeaders('a response header added', ['response-header-added'], (x) => (x.ETag = { schema: { type: 'string' } })),
  keyHeaders(
    'a required response header removed',
    ['required-response-header-removed'],
    (x) => delete x['X-Request-Id'],
    (x) => {
      x['X-Request-Id'] = { required: true, schema: { type: 'string' } };
    },
  ),
  edit('an optional response header removed (ETag)', ['optional-response-header-removed'], (s) => {
    delete s.paths['/observability/destinations/{id}'].patch.responses['200'].headers.ETag;
  }),
  keyHeaders(
    'a required response header made optional',
    ['response-header-became-optional'],
    (x) => delete x['X-Request-Id'].required,
    (x) => {
      x['X-Request-Id'] = { required: true, schema: { type: 'string' } };
    },
  ),
  retryAfter('Retry-After changed from integer to string', ['response-header-type-changed'], (x) => {
    x.schema = { type: 'string', maxLength: 32 };
  }),
  retryAfter(
    'Retry-After widened from integer to number',
    ['response-header-type-generalized'],
    (x) => (x.schema.type = 'number'),
  ),
  retryAfter(
    'Retry-After narrowed from number to integer',
    ['response-header-type-specialized'],
    (x) => (x.schema.type = 'integer'),
    (x) => {
      x.schema.type = 'number';
    },
  ),
  retryAfter(
    'a response header made nullable',
    ['response-header-became-nullable'],
    (x) => (x.schema.type = ['integer', 'null']),
  ),
  retryAfter(
    'a response header no longer nullable',
    ['response-header-became-not-nullable'],
    (x) => (x.schema.type = 'integer'),
    (x) => {
      x.schema.type = ['integer', 'null'];
    },
  ),
  // Response bodies.
  body("the response body's type changed", ['response-body-type-changed'], (x) => (x.type = 'array')),
  body('the response body made nullable', ['response-body-became-nullable'], (x) => (x.type = ['object', 'null'])),
  body(
    'the response body no longer nullable',
    ['response-body-became-not-nullable'],
    (x) => (x.type = 'object'),
    (x) => (x.type = ['object', 'null']),
  ),
  ...structureEdits('response-body', body, ['data', 'meta', 'links']),
  plain(
    "a plain-text answer's type widened to number",
    ['response-body-type-generalized'],
    (x) => (x.type = 'number'),
    (x) => (x.type = 'integer'),
  ),
  plain(
    "a plain-text answer's type narrowed to integer",
    ['response-body-type-specialized'],
    (x) => (x.type = 'integer'),
    (x) => (x.type = 'number'),
  ),
  plain(
    "a plain-text answer's maximum raised",
    ['response-body-max-increased'],
    (x) => (x.maximum = 200),
    (x) => Object.assign(x, { type: 'number', maximum: 100 }),
  ),
  plain(
    "a plain-text answer's minimum lowered",
    ['response-body-min-decreased'],
    (x) => (x.minimum = -1),
    (x) => Object.assign(x, { type: 'number', minimum: 0 }),
  ),
  plain(
    "a plain-text answer's exclusiveMaximum raised",
    ['response-body-exclusive-max-increased'],
    (x) => (x.exclusiveMaximum = 200),
    (x) => {
      Object.assign(x, { type: 'number', exclusiveMaximum: 100 });
    },
  ),
  plain(
    "a plain-text answer's exclusiveMinimum lowered",
    ['response-body-exclusive-min-decreased'],
    (x) => (x.exclusiveMinimum = -1),
    (x) => {
      Object.assign(x, { type: 'number', exclusiveMinimum: 0 });
    },
  ),
  plain(
    "a plain-text answer's maxLength raised",
    ['response-body-max-length-increased'],
    (x) => (x.maxLength = 200),
    (x) => (x.maxLength = 100),
  ),
  plain(
    "a plain-text answer's maxLength removed",
    ['response-body-max-length-unset'],
    (x) => delete x.maxLength,
    (x) => (x.maxLength = 100),
  ),
  plain(
    "a plain-text answer's minLength lowered",
    ['response-body-min-length-decreased'],
    (x) => (x.minLength = 0),
    (x) => (x.minLength = 1),
  ),
  plain(
    "a value removed from a plain-text answer's enum",
    ['response-mediatype-enum-value-removed'],
    (x) => (x.enum = ['on']),
    (x) => (x.enum = ['on', 'off']),
  ),
  plain('a default given to a plain-text answer', ['response-body-default-value-added'], (x) => (x.default = 'on')),
  plain("a plain-text answer's const set", ['response-body-const-added'], (x) => (x.const = 'on')),
  plain(
    "a plain-text answer's const removed",
    ['response-body-const-removed'],
    (x) => delete x.const,
    (x) => (x.const = 'on'),
  ),
  plain(
    "a plain-text answer's const changed",
    ['response-body-const-changed'],
    (x) => (x.const = 'off'),
    (x) => (x.const = 'on'),
  ),
  // oasdiff isResponseLooseTypeSwap: a type gained in text is compatible, not a widened list.
  plain(
    'a plain-text answer that may be a number as well',
    ['response-body-type-compatible'],
    (x) => (x.type = ['string', 'number']),
  ),
  // oasdiff typeSetNarrowed: a type array losing a type is a specialized type, no list of types.
  plain(
    'a plain-text answer that is no longer a number',
    ['response-body-type-specialized'],
    (x) => (x.type = 'string'),
    (x) => (x.type = ['string', 'number']),
  ),
  plain(
    "a plain-text list answer's minItems lowered",
    ['response-body-min-items-decreased'],
    (x) => (x.minItems = 1),
    (x) => Object.assign(x, { type: 'array', minItems: 2 }),
  ),
  plain(
    "a plain-text list answer's minItems removed",
    ['response-body-min-items-unset'],
    (x) => delete x.minItems,
    (x) => Object.assign(x, { type: 'array', minItems: 2 }),
  ),
  plain(
    "a plain-text list answer's contains removed",
    ['response-body-contains-removed'],
    (x) => delete x.contains,
    (x) => {
      Object.assign(x, { type: 'array', contains: { const: 'on' } });
    },
  ),
  plain(
    "a plain-text list answer's prefixItems added",
    ['response-body-prefix-items-added'],
    (x) => (x.prefixItems = [{ type: 'string' }]),
    (x) => (x.type = 'array'),
  ),
  plain(
    "a plain-text answer's content schema removed",
    ['response-body-content-schema-removed'],
    (x) => delete x.contentSchema,
    (x) => (x.contentSchema = { type: 'object' }),
  ),
  plain(
    "a plain-text answer's content encoding changed",
    ['response-body-content-encoding-changed'],
    (x) => (x.contentEncoding = 'base64'),
    (x) => {
      x.contentEncoding = 'base32';
    },
  ),
  // Response properties.
  edit('a required response property removed', ['response-required-property-removed'], (s) => {
    delete apiKey(s).properties.usage;
    notRequired(s, 'usage');
  }),
  nested(
    'an optional nested response property removed',
    ['response-optional-property-removed'],
    (x) => delete x.properties.email,
  ),
  edit('a response property made optional', ['response-property-became-optional'], (s) => notRequired(s, 'name')),
  edit(
    'an optional response property made required',
    ['response-property-became-required'],
    (s) => apiKey(s).required.push('owner'),
    (s) => {
      apiKey(s).properties.owner = { type: 'string' };
    },
  ),
  edit('a new required response property', ['response-required-property-added'], (s) => {
    apiKey(s).properties.scopes = { type: 'array', items: { type: 'string' } };
    apiKey(s).required.push('scopes');
  }),
  edit(
    'a new optional response property',
    ['response-optional-property-added'],
    (s) => (apiKey(s).properties.notes = { type: 'string' }),
  ),
  prop('name')(
    'a response property made nullable',
    ['response-property-became-nullable'],
    (x) => (x.type = ['string', 'null']),
  ),
  prop('limit')(
    'a response property no longer nullable',
    ['response-property-became-not-nullable'],
    (x) => (x.type = 'number'),
  ),
  usage("a response property's type changed", ['response-property-type-changed'], (x) => (x.type = 'string')),
  usage(
    "a response property's type narrowed to integer",
    ['response-property-type-specialized'],
    (x) => (x.type = 'integer'),
  ),
  edit("a response property's type widened to number", ['response-property-type-generalized'], (s) => {
    schemas(s).PresetVersion.properties.version.type = 'number';
  }),
  edit('format: uuid dropped from a response property', ['response-property-type-changed'], (s) => {
    apiKey(s).properties.workspace_id = { type: 'string', maxLength: 36 };
  }),
  label(
    'a format added to a response property',
    ['response-property-type-specialized'],
    (x) => (x.format = 'password'),
  ),
  label(
    "a response property's maxLength raised",
    ['response-property-max-length-increased'],
    (x) => (x.maxLength = 128),
  ),
  label("a response property's maxLength removed", ['response-property-max-length-unset'], (x) => delete x.maxLength),
  prop('name')(
    "a response property's minLength lowered",
    ['response-property-min-length-decreased'],
    (x) => (x.minLength = 0),
  ),
  usage("a response property's minimum lowered", ['response-property-min-decreased'], (x) => (x.minimum = -1)),
  usage(
    "a response property's maximum raised",
    ['response-property-max-increased'],
    (x) => (x.maximum = 2000),
    (x) => (x.maximum = 1000),
  ),
  usage(
    "a response property's exclusiveMaximum raised",
    ['response-property-exclusive-max-increased'],
    (x) => (x.exclusiveMaximum = 2000),
    (x) => {
      x.exclusiveMaximum = 1000;
    },
  ),
  usage(
    "a response property's exclusiveMinimum lowered",
    ['response-property-exclusive-min-decreased'],
    (x) => (x.exclusiveMinimum = -1),
    (x) => {
      x.exclusiveMinimum = 0;
    },
  ),
  scopes("a response array's minItems lowered", ['response-property-min-items-decreased'], (x) => (x.minItems = 0)),
  scopes("a response array's minItems removed", ['response-property-min-items-unset'], (x) => delete x.minItems),
  scopes(
    "a response array's contains removed",
    ['response-property-contains-removed'],
    (x) => delete x.contains,
    (x) => (x.contains = { const: 'read' }),
  ),
  scopes(
    "a response array's minContains lowered",
    ['response-property-min-contains-decreased'],
    (x) => (x.minContains = 1),
    (x) => {
      Object.assign(x, { contains: { const: 'read' }, minContains: 2, maxContains: 4 });
    },
  ),
  scopes(
    "a response array's maxContains raised",
    ['response-property-max-contains-increased'],
    (x) => (x.maxContains = 8),
    (x) => {
      Object.assign(x, { contains: { const: 'read' }, minContains: 2, maxContains: 4 });
    },
  ),
  scopes(
    "a response array's prefixItems added",
    ['response-property-prefix-items-added'],
    (x) => (x.prefixItems = [{ type: 'string' }]),
  ),
  scopes(
    "a response array's unevaluatedItems allowed again",
    ['response-property-unevaluated-items-removed'],
    (x) => delete x.unevaluatedItems,
    (x) => {
      x.unevaluatedItems = false;
    },
  ),
  edit('a value added to a response enum', ['response-property-enum-value-added'], (s) =>
    schemas(s).DestinationType.enum.push('honeycomb'),
  ),
  limitReset(
    "a value removed from a response property's enum",
    ['response-property-enum-value-removed'],
    (x) => (x.enum = ['weekly', 'monthly', null]),
  ),
  edit(
    'a value added to an enum sent in requests and received in responses',
    ['request-property-enum-value-added', 'response-property-enum-value-added'],
    (s) => schemas(s).FilterField.enum.push('latency_ms'),
  ),
  edit(
    'a value removed from an enum sent in requests and received in responses',
    ['request-property-enum-value-removed', 'response-property-enum-value-removed'],
    (s) => schemas(s).FilterField.enum.pop(),
  ),
  hash(
    'a pattern added to a response property',
    ['response-property-pattern-added'],
    (x) => (x.pattern = '^[0-9a-f]+$'),
    (x) => delete x.pattern,
  ),
  hash(
    "a response property's pattern changed",
    ['response-property-pattern-changed'],
    (x) => (x.pattern = '^[0-9a-fA-F]{64}$'),
  ),
  hash("a response property's pattern removed", ['response-property-pattern-removed'], (x) => delete x.pattern),
  label('a default given to a response property', ['response-property-default-value-added'], (x) => (x.default = '')),
  label(
    "a response property's default changed",
    ['response-property-default-value-changed'],
    (x) => (x.default = 'b'),
    (x) => (x.default = 'a'),
  ),
  label("a response property's const set", ['response-property-const-added'], (x) => (x.const = 'sk')),
  label(
    "a response property's const removed",
    ['response-property-const-removed'],
    (x) => delete x.const,
    (x) => (x.const = 'sk'),
  ),
  score('a oneOf of simple types widened by a string', ['response-property-list-of-types-widened'], (x) =>
    x.oneOf.push({ type: 'string' }),
  ),
  score('a oneOf of simple types narrowed', ['response-property-list-of-types-narrowed'], (x) => x.oneOf.pop()),
  ...structureEdits('response-property', nested, ['id', 'email', 'name']),
  nested(
    "a nested response property's discriminator renamed",
    ['response-property-discriminator-property-name-changed'],
    (x) => {
      x.discriminator.propertyName = 'type';
    },
    (x) => (x.discriminator = { propertyName: 'kind' }),
  ),
  label('a response property deprecated', ['response-property-deprecated'], (x) => (x.deprecated = true)),
  label('a response property deprecated with a sunset', ['response-property-deprecated-with-sunset'], (x) => {
    Object.assign(x, { deprecated: true, 'x-sunset': SUNSET_LATER });
  }),
  label(
    'a deprecated response property reactivated',
    ['response-property-reactivated'],
    (x) => delete x.deprecated,
    (x) => (x.deprecated = true),
  ),
  label(
    'a response property made alpha',
    ['response-property-stability-decreased'],
    (x) => (x['x-stability-level'] = 'alpha'),
  ),
  label(
    'a required response property made write-only',
    ['response-required-property-became-write-only'],
    (x) => (x.writeOnly = true),
  ),
  label(
    'a required response property no longer write-only',
    ['response-required-property-became-not-write-only'],
    (x) => delete x.writeOnly,
    (x) => {
      x.writeOnly = true;
    },
  ),
  label(
    'a required response property made read-only',
    ['response-required-property-became-read-only'],
    (x) => (x.readOnly = true),
  ),
  nested(
    'an optional response property made write-only',
    ['response-optional-property-became-write-only'],
    (x) => (x.properties.email.writeOnly = true),
  ),
  nested(
    'an optional response property made read-only',
    ['response-optional-property-became-read-only'],
    (x) => (x.properties.email.readOnly = true),
  ),
  nested(
    'an optional write-only response property removed',
    ['response-optional-write-only-property-removed'],
    (x) => delete x.properties.email,
    (x) => {
      x.properties.email.writeOnly = true;
    },
  ),
  nested('an optional write-only response property added', ['response-optional-write-only-property-added'], (x) => {
    x.properties.secret = { type: 'string', writeOnly: true };
  }),
  edit(
    'a required write-only response property removed',
    ['response-required-write-only-property-removed'],
    (s) => {
      delete apiKey(s).properties.label;
      notRequired(s, 'label');
    },
    (s) => (apiKey(s).properties.label.writeOnly = true),
  ),
  edit('a required write-only response property added', ['response-required-write-only-property-added'], (s) => {
    apiKey(s).properties.secret = { type: 'string', writeOnly: true };
    apiKey(s).required.push('secret');
  }),
  edit(
    'a write-only response property made optional',
    ['response-write-only-property-became-optional'],
    (s) => notRequired(s, 'label'),
    (s) => {
      apiKey(s).properties.label.writeOnly = true;
    },
  ),
  edit(
    "a value added to a write-only response property's enum",
    ['response-write-only-property-enum-value-added'],
    (s) => {
      apiKey(s).properties.limit_reset.enum.push('yearly');
    },
    (s) => (apiKey(s).properties.limit_reset.writeOnly = true),
  ),
  edit('a response property that may no longer be null', ['response-property-became-not-nullable'], (s) => {
    schemas(s).ObservabilityDestination.properties.name.type = 'string';
  }),
  edit('a list response property added', ['response-required-property-added'], (s) => {
    schemas(s).PresetVersionList.properties.next = { type: ['integer', 'null'] };
    schemas(s).PresetVersionList.required.push('next');
  }),
  edit(
    'a list parameter and a list property tightened together',
    ['request-parameter-max-decreased', 'response-property-max-increased'],
    (s) => {
      const limit = list(s).parameters.find((p: Json) => p.name === 'limit');
      limit.schema.maximum = 50;
      apiKey(s).properties.usage.maximum = 2000;
    },
    (s) => (apiKey(s).properties.usage.maximum = 1000),
  ),
];
