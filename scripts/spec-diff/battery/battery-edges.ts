// The battery's edits of less common places: object parameters, path-level parameters, media types
// that are not JSON (where a value may be read as text), read-only and write-only properties, sunsets
// that cannot be read, renamed response media types, and the rarer keywords of response schemas.
import { type BatteryEdit, edit, family, getKey, type Json, list, patch, schemas, VERSIONS } from './battery-kit.js';

const update = (s: Json) => schemas(s).ObservabilityDestinationUpdate;
const apiKey = (s: Json) => schemas(s).ApiKey;
const ok = (s: Json) => getKey(s).responses['200'];

// A deepObject query parameter: its properties are rules of their own in oasdiff.
const filter = (property: string) =>
  family(
    (s) => list(s).parameters.find((p: Json) => p.name === 'filter').schema.properties[property],
    (s) =>
      list(s).parameters.push({
        name: 'filter',
        in: 'query',
        style: 'deepObject',
        schema: {
          type: 'object',
          properties: { model: { type: 'string', enum: ['a', 'b'] }, min: { type: 'integer' } },
        },
      }),
  );
const model = filter('model');
// A header parameter whose value is an object of named parts.
const clientHeader = family(
  (s) => getKey(s).parameters.find((p: Json) => p.name === 'X-Client').schema,
  (s) =>
    getKey(s).parameters.push({
      name: 'X-Client',
      in: 'header',
      schema: { type: 'object', properties: { name: { type: 'string' }, version: { type: 'string' } } },
    }),
);
const min = filter('min');
// Forms and plain text are not strongly typed: any value can be read as a string.
const form = family(
  (s) => patch(s).requestBody.content['application/x-www-form-urlencoded'].schema.properties.rate,
  (s) => {
    patch(s).requestBody.content['application/x-www-form-urlencoded'] = {
      schema: { type: 'object', properties: { rate: { type: 'number' } } },
    };
  },
);
const plainRequest = family(
  (s) => patch(s).requestBody.content['text/plain'].schema,
  (s) => (patch(s).requestBody.content['text/plain'] = { schema: { type: 'number' } }),
);
const plainResponse = family(
  (s) => ok(s).content['text/plain'].schema,
  (s) => (ok(s).content['text/plain'] = { schema: { type: 'string' } }),
);
const xmlResponse = family(
  (s) => ok(s).content['application/xml'].schema.properties.count,
  (s) => {
    ok(s).content['application/xml'] = { schema: { type: 'object', properties: { count: { type: 'string' } } } };
  },
);
const readOnlyRate = family(
  (s) => update(s).properties.sampling_rate,
  (s) =>
    Object.assign(update(s).properties.sampling_rate, { readOnly: true, exclusiveMaximum: 2, exclusiveMinimum: 0 }),
);
const requiredName = family(
  (s) => update(s).properties.name,
  (s) => (update(s).required = ['name']),
);
const label = family((s) => apiKey(s).properties.label);
const owner = family(
  (s) => apiKey(s).properties.owner,
  (s) => (apiKey(s).properties.owner = { type: 'object', properties: { email: { type: 'string' } } }),
);
const array = (target: (s: Json) => Json, prepare: (s: Json) => void) =>
  family(target, (s) => {
    prepare(s);
    Object.assign(target(s), { contains: { const: 'x' }, minContains: 2, maxContains: 4 });
  });
const plainArrayRequest = array(
  (s) => patch(s).requestBody.content['text/plain'].schema,
  (s) => (patch(s).requestBody.content['text/plain'] = { schema: { type: 'array' } }),
);
const plainArrayResponse = array(
  (s) => ok(s).content['text/plain'].schema,
  (s) => (ok(s).content['text/plain'] = { schema: { type: 'array' } }),
);
const labelsRequest = array(
  (s) => update(s).properties.labels,
  (s) => (update(s).properties.labels = { type: 'array', items: { type: 'string' } }),
);
const tagsResponse = array(
  (s) => apiKey(s).properties.tags,
  (s) => (apiKey(s).properties.tags = { type: 'array', items: { type: 'string' } }),
);
const renamedContent = (from: string, to: string) => (s: Json) => {
  const content = ok(s).content;
  content[to] = content[from];
  delete content[from];
};

export const BATTERY_EDGES: BatteryEdit[] = [
  model("a value added to an object parameter's property enum", ['request-parameter-property-enum-value-added'], (x) =>
    x.enum.push('c'),
  ),
  model(
    "a value removed from an object parameter's property enum",
    ['request-parameter-property-enum-value-removed'],
    (x) => (x.enum = ['a']),
  ),
  min('an object parameter property now accepting null', ['request-parameter-property-became-nullable'], (x) => {
    x.type = ['integer', 'null'];
  }),
  min(
    'an object parameter property no longer accepting null',
    ['request-parameter-property-became-not-nullable'],
    (x) => (x.type = 'integer'),
    (x) => (x.type = ['integer', 'null']),
  ),
  min('an object parameter property widened to number', ['request-parameter-property-type-generalized'], (x) => {
    x.type = 'number';
  }),
  min('an object parameter property changed to string', ['request-parameter-property-type-changed'], (x) => {
    x.type = 'string';
  }),
  model('an object parameter property changed to integer', ['request-parameter-property-type-specialized'], (x) => {
    delete x.enum;
    x.type = 'integer';
  }),
  // oasdiff checkRequestParameterPropertyTypeChanged: a gained boolean breaks read as JSON and as text.
  min(
    'an object parameter property accepting a boolean as well',
    ['request-parameter-property-type-specialized'],
    (x) => {
      x.type = ['integer', 'boolean'];
    },
  ),
  // oasdiff checkRequestParameterPropertyTypeChanged: a lost type breaks read as JSON only, so it warns.
  min(
    'an object parameter property no longer accepting a boolean',
    ['request-parameter-property-type-changed'],
    (x) => (x.type = 'integer'),
    (x) => (x.type = ['integer', 'boolean']),
  ),
  clientHeader('a required part added to an object header', ['new-required-request-header-property'], (x) => {
    x.properties.os = { type: 'string' };
    x.required = ['os'];
  }),
  clientHeader('a part of an object header made required', ['request-header-property-became-required'], (x) => {
    x.required = ['name'];
  }),
  clientHeader('a part of an object header restricted to an enum', ['request-header-property-became-enum'], (x) => {
    x.properties.name.enum = ['web', 'cli'];
  }),
  edit(
    'a required parameter added to every operation of a path',
    ['new-required-request-default-parameter-to-existing-path'],
    (s) => {
      s.paths[VERSIONS].parameters = [{ name: 'tenant', in: 'query', required: true, schema: { type: 'string' } }];
    },
  ),
  edit(
    'an optional parameter added to every operation of a path',
    ['new-optional-request-default-parameter-to-existing-path'],
    (s) => {
      s.paths[VERSIONS].parameters = [{ name: 'tenant', in: 'query', schema: { type: 'string' } }];
    },
  ),
  form("a form field's type changed to string", ['request-property-type-compatible'], (x) => (x.type = 'string')),
  plainRequest(
    "a plain-text body's type changed to string",
    ['request-body-type-compatible'],
    (x) => (x.type = 'string'),
  ),
  plainResponse(
    "a plain-text answer's type changed to number",
    ['response-body-type-compatible'],
    (x) => (x.type = 'number'),
  ),
  xmlResponse(
    "an XML answer's property changed to number",
    ['response-property-type-compatible'],
    (x) => (x.type = 'number'),
  ),
  edit("a response header's type changed from string to integer", ['response-header-type-compatible'], (s) => {
    s.components.headers.RateLimit.schema = { type: 'integer' };
  }),
  readOnlyRate("a read-only request property's maximum lowered", ['request-read-only-property-max-decreased'], (x) => {
    x.maximum = 0.5;
  }),
  readOnlyRate(
    "a read-only request property's exclusiveMaximum lowered",
    ['request-read-only-property-exclusive-max-decreased'],
    (x) => (x.exclusiveMaximum = 1.5),
  ),
  readOnlyRate(
    "a read-only request property's exclusiveMinimum raised",
    ['request-read-only-property-exclusive-min-increased'],
    (x) => (x.exclusiveMinimum = 0.1),
  ),
  requiredName(
    'a required request property no longer read-only',
    ['request-required-property-became-not-read-only'],
    (x) => delete x.readOnly,
    (x) => (x.readOnly = true),
  ),
  requiredName(
    'a required request property no longer write-only',
    ['request-required-property-became-not-write-only'],
    (x) => delete x.writeOnly,
    (x) => (x.writeOnly = true),
  ),
  requiredName(
    'a request property deprecated with a sunset that cannot be read',
    ['request-property-deprecated-sunset-invalid'],
    (x) => Object.assign(x, { deprecated: true, 'x-sunset': 'soon' }),
  ),
  label(
    'a response property deprecated with a sunset that cannot be read',
    ['response-property-deprecated-sunset-invalid'],
    (x) => Object.assign(x, { deprecated: true, 'x-sunset': 'soon' }),
  ),
  label(
    'a beta response property made stable',
    ['response-property-stability-increased'],
    (x) => (x['x-stability-level'] = 'stable'),
    (x) => (x['x-stability-level'] = 'beta'),
  ),
  label(
    'a required response property no longer read-only',
    ['response-required-property-became-not-read-only'],
    (x) => delete x.readOnly,
    (x) => (x.readOnly = true),
  ),
  owner(
    'an optional response property no longer write-only',
    ['response-optional-property-became-not-write-only'],
    (x) => delete x.properties.email.writeOnly,
    (x) => (x.properties.email.writeOnly = true),
  ),
  owner(
    'an optional response property no longer read-only',
    ['response-optional-property-became-not-read-only'],
    (x) => delete x.properties.email.readOnly,
    (x) => (x.properties.email.readOnly = true),
  ),
  owner(
    "a write-only response property's type changed: oasdiff's type check reads write-only properties too",
    ['response-property-type-changed'],
    (x) => (x.properties.email.type = 'integer'),
    (x) => (x.properties.email.writeOnly = true),
  ),
  owner(
    'a write-only response property made required',
    ['response-write-only-property-became-required'],
    (x) => (x.required = ['email']),
    (x) => (x.properties.email.writeOnly = true),
  ),
  label(
    "a response property's default removed",
    ['response-property-default-value-removed'],
    (x) => delete x.default,
    (x) => (x.default = 'a'),
  ),
  label(
    "a response property's const changed",
    ['response-property-const-changed'],
    (x) => (x.const = 'b'),
    (x) => {
      x.const = 'a';
    },
  ),
  label('a content schema set on a response property', ['response-property-content-schema-added'], (x) => {
    x.contentSchema = { type: 'object' };
  }),
  label(
    "a response property's content schema removed",
    ['response-property-content-schema-removed'],
    (x) => delete x.contentSchema,
    (x) => (x.contentSchema = { type: 'object' }),
  ),
  label(
    "a response property's content media type changed",
    ['response-property-content-media-type-changed'],
    (x) => (x.contentMediaType = 'text/html'),
    (x) => (x.contentMediaType = 'text/plain'),
  ),
  label(
    "a response property's content encoding changed",
    ['response-property-content-encoding-changed'],
    (x) => (x.contentEncoding = 'base64'),
    (x) => (x.contentEncoding = 'base32'),
  ),
  plainResponse(
    "a plain-text answer's default removed",
    ['response-body-default-value-removed'],
    (x) => delete x.default,
    (x) => (x.default = 'on'),
  ),
  plainResponse(
    "a plain-text answer's default changed",
    ['response-body-default-value-changed'],
    (x) => (x.default = 'off'),
    (x) => (x.default = 'on'),
  ),
  plainResponse('a content schema set on a plain-text answer', ['response-body-content-schema-added'], (x) => {
    x.contentSchema = { type: 'object' };
  }),
  plainResponse(
    "a plain-text answer's content media type changed",
    ['response-body-content-media-type-changed'],
    (x) => (x.contentMediaType = 'text/html'),
    (x) => (x.contentMediaType = 'text/plain'),
  ),
  plainArrayRequest("a plain-text list body's minContains lowered", ['request-body-min-contains-decreased'], (x) => {
    x.minContains = 1;
  }),
  plainArrayRequest("a plain-text list body's maxContains raised", ['request-body-max-contains-increased'], (x) => {
    x.maxContains = 8;
  }),
  plainArrayRequest(
    "a plain-text list body's unevaluatedItems allowed again",
    ['request-body-unevaluated-items-removed'],
    (x) => delete x.unevaluatedItems,
    (x) => (x.unevaluatedItems = false),
  ),
  labelsRequest("a request array's minContains raised", ['request-property-min-contains-increased'], (x) => {
    x.minContains = 3;
  }),
  labelsRequest("a request array's maxContains lowered", ['request-property-max-contains-decreased'], (x) => {
    x.maxContains = 3;
  }),
  plainArrayResponse(
    'contains added to a plain-text list answer',
    ['response-body-contains-added'],
    (x) => {
      x.contains = { const: 'y' };
    },
    (x) => delete x.contains,
  ),
  plainArrayResponse("a plain-text list answer's minContains raised", ['response-body-min-contains-increased'], (x) => {
    x.minContains = 3;
  }),
  plainArrayResponse(
    "a plain-text list answer's minContains lowered",
    ['response-body-min-contains-decreased'],
    (x) => {
      x.minContains = 1;
    },
  ),
  plainArrayResponse("a plain-text list answer's maxContains raised", ['response-body-max-contains-increased'], (x) => {
    x.maxContains = 8;
  }),
  plainArrayResponse(
    "a plain-text list answer's maxContains lowered",
    ['response-body-max-contains-decreased'],
    (x) => {
      x.maxContains = 3;
    },
  ),
  plainArrayResponse(
    "a plain-text list answer's prefixItems removed",
    ['response-body-prefix-items-removed'],
    (x) => delete x.prefixItems,
    (x) => (x.prefixItems = [{ type: 'string' }]),
  ),
  plainArrayResponse(
    "a plain-text list answer's unevaluatedItems allowed again",
    ['response-body-unevaluated-items-removed'],
    (x) => delete x.unevaluatedItems,
    (x) => (x.unevaluatedItems = false),
  ),
  tagsResponse(
    'contains added to a response array',
    ['response-property-contains-added'],
    (x) => (x.contains = { const: 'y' }),
    (x) => {
      delete x.contains;
    },
  ),
  tagsResponse("a response array's minContains raised", ['response-property-min-contains-increased'], (x) => {
    x.minContains = 3;
  }),
  tagsResponse("a response array's maxContains lowered", ['response-property-max-contains-decreased'], (x) => {
    x.maxContains = 3;
  }),
  tagsResponse(
    "a response array's prefixItems removed",
    ['response-property-prefix-items-removed'],
    (x) => delete x.prefixItems,
    (x) => (x.prefixItems = [{ type: 'string' }]),
  ),
  tagsResponse('unevaluatedItems refused in a response array', ['response-property-unevaluated-items-added'], (x) => {
    x.unevaluatedItems = false;
  }),
  edit(
    "a response media type's parameters changed",
    ['response-media-type-name-changed'],
    renamedContent('application/json', 'application/json; charset=utf-8'),
  ),
  // oasdiff IsMediaTypeNameContained compares subtypes literally: a range pairs with nothing.
  edit(
    'a response media type widened to a range',
    ['response-media-type-removed', 'response-media-type-added'],
    renamedContent('application/json', 'application/*'),
  ),
  // oasdiff IsMediaTypeNameContained compares subtypes literally: a range pairs with nothing.
  edit(
    'a response media type range narrowed',
    ['response-media-type-removed', 'response-media-type-added'],
    renamedContent('application/*', 'application/json'),
    renamedContent('application/json', 'application/*'),
  ),
];
