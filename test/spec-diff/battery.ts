// A battery of edits to this project's openapi.yaml, each with the level oasdiff's rules give it
// and the rule ids spec:diff must report: what the engine of spec:diff is chosen on
// (scripts/spec-diff-battery.ts scores it and api-smart-diff) and held to (battery.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Level } from '../../scripts/spec-diff/engine/rules.js';
import { projectRoot } from '../../server/project-root.js';
import { parseSpecYaml } from '../../server/spec.js';

// Documents edited in place, many levels deep: typing every level would say nothing more.
// biome-ignore lint/suspicious/noExplicitAny: documents edited freely by the edits below
type Json = Record<string, any>;

export interface BatteryEdit {
  name: string;
  /** The edit's class: the highest level it must be reported at. */
  level: Level;
  /** Rule ids that must be among the findings, each at its rule's level. */
  ids: string[];
  /** Applied to both documents first, when the edit needs something the spec does not have. */
  setup?: (spec: Json) => void;
  edit: (spec: Json) => void;
}

export function baseSpec(): Json {
  return parseSpecYaml(readFileSync(join(projectRoot, 'openapi.yaml'), 'utf8')) as Json;
}

const KEY = '/keys/{hash}';
const DESTINATION = '/observability/destinations/{id}';
const VERSIONS = '/presets/{slug}/versions';
const getKey = (s: Json) => s.paths[KEY].get;
const patch = (s: Json) => s.paths[DESTINATION].patch;
const list = (s: Json) => s.paths[VERSIONS].get;
const param = (operation: Json, name: string) => operation.parameters.find((p: Json) => p.name === name);
const schemas = (s: Json) => s.components.schemas;
const update = (s: Json) => schemas(s).ObservabilityDestinationUpdate;
const apiKey = (s: Json) => schemas(s).ApiKey;
const addOrder = (s: Json) =>
  list(s).parameters.push({ name: 'order', in: 'query', schema: { type: 'string', enum: ['asc', 'desc'] } });
const addPost = (s: Json) => {
  s.paths[KEY].post = { operationId: 'touchKey', responses: { '204': { description: 'touched' } } };
};

export const BATTERY: BatteryEdit[] = [
  // Errors: each breaks a client written against the spec before.
  {
    name: 'a path removed',
    level: 'error',
    ids: ['api-path-removed-without-deprecation'],
    edit: (s) => delete s.paths[KEY],
  },
  {
    name: 'an operation removed from a path that keeps another',
    level: 'error',
    ids: ['api-removed-without-deprecation'],
    setup: addPost,
    edit: (s) => delete s.paths[KEY].post,
  },
  {
    name: 'a path parameter renamed (the path changes)',
    level: 'error',
    ids: ['api-path-removed-without-deprecation', 'endpoint-added'],
    edit: (s) => {
      param(getKey(s), 'hash').name = 'key_hash';
      s.paths['/keys/{key_hash}'] = s.paths[KEY];
      delete s.paths[KEY];
    },
  },
  {
    name: 'a new required query parameter',
    level: 'error',
    ids: ['new-required-request-parameter'],
    edit: (s) => list(s).parameters.push({ name: 'tenant', in: 'query', required: true, schema: { type: 'string' } }),
  },
  {
    name: 'a new required header parameter',
    level: 'error',
    ids: ['new-required-request-parameter'],
    edit: (s) =>
      getKey(s).parameters.push({ name: 'X-Workspace', in: 'header', required: true, schema: { type: 'string' } }),
  },
  {
    name: 'an optional parameter made required',
    level: 'error',
    ids: ['request-parameter-became-required'],
    edit: (s) => (param(list(s), 'limit').required = true),
  },
  {
    name: "a parameter's type changed",
    level: 'error',
    ids: ['request-parameter-type-changed'],
    edit: (s) => (param(list(s), 'limit').schema.type = 'string'),
  },
  {
    name: "a parameter's maximum lowered",
    level: 'error',
    ids: ['request-parameter-max-decreased'],
    edit: (s) => (param(list(s), 'limit').schema.maximum = 50),
  },
  {
    name: "a parameter's minimum raised",
    level: 'error',
    ids: ['request-parameter-min-increased'],
    edit: (s) => (param(list(s), 'limit').schema.minimum = 5),
  },
  {
    name: "a parameter's maxLength lowered",
    level: 'error',
    ids: ['request-parameter-max-length-decreased'],
    edit: (s) => (param(list(s), 'slug').schema.maxLength = 100),
  },
  {
    name: "a parameter's minLength raised",
    level: 'error',
    ids: ['request-parameter-min-length-increased'],
    edit: (s) => (param(list(s), 'slug').schema.minLength = 3),
  },
  {
    name: 'a maxLength set on a parameter that had none',
    level: 'error',
    ids: ['request-parameter-max-length-set'],
    edit: (s) => (param(getKey(s), 'hash').schema.maxLength = 64),
  },
  {
    name: 'a pattern added to a parameter',
    level: 'error',
    ids: ['request-parameter-pattern-added'],
    edit: (s) => (param(getKey(s), 'hash').schema.pattern = '^[0-9a-f]{64}$'),
  },
  {
    name: "a parameter's default changed",
    level: 'error',
    ids: ['request-parameter-default-value-changed'],
    edit: (s) => (param(list(s), 'limit').schema.default = 20),
  },
  {
    name: 'a parameter restricted to an enum',
    level: 'error',
    ids: ['request-parameter-became-enum'],
    edit: (s) => (param(list(s), 'slug').schema.enum = ['support-agent']),
  },
  {
    name: "a value removed from a parameter's enum",
    level: 'error',
    ids: ['request-parameter-enum-value-removed'],
    setup: addOrder,
    edit: (s) => (param(list(s), 'order').schema.enum = ['asc']),
  },
  {
    name: 'a parameter no longer accepting null (offset)',
    level: 'error',
    ids: ['request-parameter-became-not-nullable'],
    edit: (s) => (param(list(s), 'offset').schema.type = 'integer'),
  },
  {
    name: 'the request body made required',
    level: 'error',
    ids: ['request-body-became-required'],
    setup: (s) => (patch(s).requestBody.required = false),
    edit: (s) => (patch(s).requestBody.required = true),
  },
  {
    name: "the request body's application/json replaced by another media type",
    level: 'error',
    ids: ['request-body-media-type-removed', 'request-body-media-type-added'],
    edit: (s) => {
      const content = patch(s).requestBody.content;
      content['application/merge-patch+json'] = content['application/json'];
      delete content['application/json'];
    },
  },
  {
    name: 'a new required request property',
    level: 'error',
    ids: ['new-required-request-property'],
    edit: (s) => {
      update(s).properties.owner = { type: 'string' };
      update(s).required = ['owner'];
    },
  },
  {
    name: 'a request property made required',
    level: 'error',
    ids: ['request-property-became-required'],
    edit: (s) => (update(s).required = ['name']),
  },
  {
    name: "a request property's type changed",
    level: 'error',
    ids: ['request-property-type-changed'],
    edit: (s) => (update(s).properties.enabled.type = 'string'),
  },
  {
    name: "a request property's maximum lowered",
    level: 'error',
    ids: ['request-property-max-decreased'],
    edit: (s) => (update(s).properties.sampling_rate.maximum = 0.5),
  },
  {
    name: "a request property's minimum raised",
    level: 'error',
    ids: ['request-property-min-increased'],
    edit: (s) => (update(s).properties.sampling_rate.minimum = 0.01),
  },
  {
    name: "a request property's maxLength lowered",
    level: 'error',
    ids: ['request-property-max-length-decreased'],
    edit: (s) => (update(s).properties.name.maxLength = 100),
  },
  {
    name: 'a pattern added to a request property',
    level: 'error',
    ids: ['request-property-pattern-added'],
    edit: (s) => (update(s).properties.name.pattern = '^[a-z ]+$'),
  },
  {
    name: 'a value removed from an enum sent in requests (and received in responses)',
    level: 'error',
    ids: ['request-property-enum-value-removed', 'response-property-enum-value-removed'],
    edit: (s) => schemas(s).FilterField.enum.pop(),
  },
  {
    name: 'a request property no longer accepting null',
    level: 'error',
    ids: ['request-property-became-not-nullable'],
    edit: (s) => (update(s).properties.api_key_hashes = { $ref: '#/components/schemas/ApiKeyHashList' }),
  },
  {
    name: 'unknown request properties now refused',
    level: 'error',
    ids: ['request-body-additional-properties-refused'],
    setup: (s) => delete update(s).additionalProperties,
    edit: (s) => (update(s).additionalProperties = false),
  },
  {
    name: 'a success status replaced',
    level: 'error',
    ids: ['response-success-status-removed', 'response-success-status-added'],
    edit: (s) => {
      getKey(s).responses['203'] = getKey(s).responses['200'];
      delete getKey(s).responses['200'];
    },
  },
  {
    name: "a response's media type replaced",
    level: 'error',
    ids: ['response-media-type-removed', 'response-media-type-added'],
    edit: (s) => {
      const content = getKey(s).responses['200'].content;
      content['application/vnd.api+json'] = content['application/json'];
      delete content['application/json'];
    },
  },
  {
    name: 'a required response property removed',
    level: 'error',
    ids: ['response-required-property-removed'],
    edit: (s) => {
      delete apiKey(s).properties.usage;
      apiKey(s).required = apiKey(s).required.filter((name: string) => name !== 'usage');
    },
  },
  {
    name: 'a response property made optional',
    level: 'error',
    ids: ['response-property-became-optional'],
    edit: (s) => (apiKey(s).required = apiKey(s).required.filter((name: string) => name !== 'name')),
  },
  {
    name: 'a response property made nullable',
    level: 'error',
    ids: ['response-property-became-nullable'],
    edit: (s) => (apiKey(s).properties.name.type = ['string', 'null']),
  },
  {
    name: "a response property's type changed",
    level: 'error',
    ids: ['response-property-type-changed'],
    edit: (s) => (apiKey(s).properties.usage.type = 'string'),
  },
  {
    name: "a response property's maxLength raised",
    level: 'error',
    ids: ['response-property-max-length-increased'],
    edit: (s) => (apiKey(s).properties.label.maxLength = 128),
  },
  {
    name: "a response property's minimum lowered",
    level: 'error',
    ids: ['response-property-min-decreased'],
    edit: (s) => (apiKey(s).properties.usage.minimum = -1),
  },
  {
    name: 'a security alternative removed (standard keys no longer list versions)',
    level: 'error',
    ids: ['api-security-removed'],
    edit: (s) => (list(s).security = [{ bearerAuth: ['management'] }]),
  },
  {
    name: 'a role added to a security requirement',
    level: 'error',
    ids: ['api-security-scope-added'],
    edit: (s) => (getKey(s).security = [{ bearerAuth: ['management', 'standard'] }]),
  },
  {
    name: 'security on an operation that had none',
    level: 'error',
    ids: ['api-security-now-required'],
    setup: (s) => {
      s.security = [];
      for (const operation of [getKey(s), patch(s), list(s)]) delete operation.security;
    },
    edit: (s) => (s.security = [{ bearerAuth: [] }]),
  },
  // Warnings: safe for most clients, not for all.
  {
    name: 'a value added to a response enum',
    level: 'warning',
    ids: ['response-property-enum-value-added'],
    edit: (s) => schemas(s).DestinationType.enum.push('honeycomb'),
  },
  {
    name: 'a value added to an enum sent in requests and received in responses',
    level: 'warning',
    ids: ['request-property-enum-value-added', 'response-property-enum-value-added'],
    edit: (s) => schemas(s).FilterField.enum.push('latency_ms'),
  },
  {
    name: 'a query parameter removed',
    level: 'warning',
    ids: ['request-parameter-removed'],
    edit: (s) => (list(s).parameters = list(s).parameters.filter((p: Json) => p.name !== 'offset')),
  },
  {
    name: 'a request property removed',
    level: 'warning',
    ids: ['request-property-removed'],
    edit: (s) => delete update(s).properties.privacy_mode,
  },
  {
    name: "a request property's pattern changed",
    level: 'warning',
    ids: ['request-property-pattern-changed'],
    setup: (s) => (update(s).properties.name.pattern = '^[a-z ]+$'),
    edit: (s) => (update(s).properties.name.pattern = '^[a-z0-9 ]+$'),
  },
  {
    name: "a parameter's pattern changed",
    level: 'warning',
    ids: ['request-parameter-pattern-changed'],
    setup: (s) => (param(getKey(s), 'hash').schema.pattern = '^[0-9a-f]{64}$'),
    edit: (s) => (param(getKey(s), 'hash').schema.pattern = '^[0-9a-fA-F]{64}$'),
  },
  // Compatible: nothing a client relied on changes.
  { name: 'an endpoint added', level: 'info', ids: ['endpoint-added'], edit: addPost },
  {
    name: 'a new optional query parameter',
    level: 'info',
    ids: ['new-optional-request-parameter'],
    edit: addOrder,
  },
  {
    name: "a parameter's maximum raised",
    level: 'info',
    ids: ['request-parameter-max-increased'],
    edit: (s) => (param(list(s), 'limit').schema.maximum = 200),
  },
  {
    name: "a request property's maxLength raised",
    level: 'info',
    ids: ['request-property-max-length-increased'],
    edit: (s) => (update(s).properties.name.maxLength = 512),
  },
  {
    name: 'a new optional request property',
    level: 'info',
    ids: ['new-optional-request-property'],
    edit: (s) => (update(s).properties.notes = { type: 'string', maxLength: 100 }),
  },
  {
    name: 'a new required response property',
    level: 'info',
    ids: ['response-required-property-added'],
    edit: (s) => {
      apiKey(s).properties.scopes = { type: 'array', items: { type: 'string' } };
      apiKey(s).required.push('scopes');
    },
  },
  {
    name: 'an error status added',
    level: 'info',
    ids: ['response-non-success-status-added'],
    edit: (s) => (getKey(s).responses['410'] = { ...getKey(s).responses['404'] }),
  },
  {
    name: 'an error status removed',
    level: 'info',
    ids: ['response-non-success-status-removed'],
    edit: (s) => delete getKey(s).responses['403'],
  },
  {
    name: 'a security alternative added (standard keys may read keys)',
    level: 'info',
    ids: ['api-security-added'],
    edit: (s) => getKey(s).security.push({ apiKeyHeader: [] }),
  },
  {
    name: 'a response property that may no longer be null',
    level: 'info',
    ids: [],
    edit: (s) => (schemas(s).ObservabilityDestination.properties.name.type = 'string'),
  },
  {
    name: 'a description changed',
    level: 'info',
    ids: ['documentation-changed'],
    edit: (s) => (getKey(s).description = 'Reads one API key.'),
  },
  {
    name: 'info.version bumped, nothing else',
    level: 'info',
    ids: [],
    edit: (s) => (s.info.version = '2.1.0'),
  },
];
