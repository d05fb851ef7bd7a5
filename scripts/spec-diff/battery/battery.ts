// A battery of edits to this project's openapi.yaml, written from oasdiff's rule registry
// (scripts/spec-diff/engine/oasdiff-rules.ts, oasdiff v1.28.0): each edit is a change one or more of
// its rules name, and expects those ids at oasdiff's levels. The edit's class is the highest of them:
// an error edit must fail the gate, a warning edit must be reported without failing it, an info
// edit must pass. A few edits expect a project rule (`project-` ids), or a project override of
// oasdiff's level; they say so. test/spec-diff/battery.test.ts holds spec:diff to it; score-battery.ts scores it.

import { BATTERY_EDGES } from './battery-edges.js';
import {
  addPost,
  type BatteryEdit,
  edit,
  getKey,
  type Json,
  KEY,
  list,
  operations,
  param,
  projectEdit,
  SUNSET_LATER,
  schemas,
} from './battery-kit.js';
import { BATTERY_REQUESTS } from './battery-requests.js';
import { BATTERY_RESPONSES } from './battery-responses.js';

export { type BatteryEdit, baseSpec } from './battery-kit.js';

/** Edits of operations, parameters, security and the document as a whole. */
const BATTERY_OPERATIONS: BatteryEdit[] = [
  edit('a path removed', ['api-path-removed-without-deprecation'], (s) => delete s.paths[KEY]),
  edit(
    'an operation removed from a path that keeps another',
    ['api-removed-without-deprecation'],
    (s) => delete s.paths[KEY].post,
    addPost,
  ),
  edit('a path variable renamed: the same path to a client, as oasdiff pairs paths', [], (s) => {
    param(getKey(s), 'hash').name = 'key_hash';
    s.paths['/keys/{key_hash}'] = s.paths[KEY];
    delete s.paths[KEY];
  }),
  edit(
    'a deprecated path removed',
    ['api-path-removed-with-deprecation'],
    (s) => delete s.paths[KEY],
    (s) => (getKey(s).deprecated = true),
  ),
  edit(
    'a deprecated operation removed',
    ['api-removed-with-deprecation'],
    (s) => delete s.paths[KEY].post,
    (s) => {
      addPost(s);
      s.paths[KEY].post.deprecated = true;
    },
  ),
  edit(
    'a path removed before its sunset',
    ['api-path-removed-before-sunset'],
    (s) => delete s.paths[KEY],
    (s) => Object.assign(getKey(s), { deprecated: true, 'x-sunset': SUNSET_LATER }),
  ),
  edit(
    'an operation removed before its sunset',
    ['api-removed-before-sunset'],
    (s) => delete s.paths[KEY].post,
    (s) => {
      addPost(s);
      Object.assign(s.paths[KEY].post, { deprecated: true, 'x-sunset': SUNSET_LATER });
    },
  ),
  edit(
    'a path removed whose sunset cannot be read',
    ['api-path-sunset-parse'],
    (s) => delete s.paths[KEY],
    (s) => Object.assign(getKey(s), { deprecated: true, 'x-sunset': 'next spring' }),
  ),
  edit('an endpoint added', ['endpoint-added'], addPost),
  edit('an operation deprecated', ['endpoint-deprecated'], (s) => (getKey(s).deprecated = true)),
  edit('an operation deprecated with a sunset date', ['endpoint-deprecated-with-sunset'], (s) =>
    Object.assign(getKey(s), { deprecated: true, 'x-sunset': SUNSET_LATER }),
  ),
  edit('an operation deprecated with a sunset that cannot be read', ['api-deprecated-sunset-parse'], (s) =>
    Object.assign(getKey(s), { deprecated: true, 'x-sunset': 'next spring' }),
  ),
  // oasdiff getSunsetDate reads a plain date or an RFC 3339 date-time only.
  edit('an operation deprecated with a sunset written as an HTTP date', ['api-deprecated-sunset-parse'], (s) =>
    Object.assign(getKey(s), { deprecated: true, 'x-sunset': 'Tue, 31 Dec 2999 00:00:00 GMT' }),
  ),
  edit('an operation deprecated with a sunset as an RFC 3339 date-time', ['endpoint-deprecated-with-sunset'], (s) =>
    Object.assign(getKey(s), { deprecated: true, 'x-sunset': '2999-12-31T23:00:00-05:00' }),
  ),
  edit(
    'a deprecated operation reactivated',
    ['endpoint-reactivated'],
    (s) => delete getKey(s).deprecated,
    (s) => (getKey(s).deprecated = true),
  ),
  edit(
    "a deprecated operation's sunset removed",
    ['sunset-deleted'],
    (s) => delete getKey(s)['x-sunset'],
    (s) => Object.assign(getKey(s), { deprecated: true, 'x-sunset': SUNSET_LATER }),
  ),
  // oasdiff APISunsetChangedCheck: an earlier sunset errs only with fewer days left than the minimum, 0.
  edit(
    "a deprecated operation's sunset brought forward into the past",
    ['api-sunset-date-changed-too-small'],
    (s) => (getKey(s)['x-sunset'] = '2020-01-01'),
    (s) => Object.assign(getKey(s), { deprecated: true, 'x-sunset': SUNSET_LATER }),
  ),
  edit(
    "a deprecated operation's sunset brought forward, still to come",
    [],
    (s) => (getKey(s)['x-sunset'] = '2999-01-01'),
    (s) => Object.assign(getKey(s), { deprecated: true, 'x-sunset': SUNSET_LATER }),
  ),
  edit('an operation made beta', ['api-stability-decreased'], (s) => (getKey(s)['x-stability-level'] = 'beta')),
  edit(
    'a beta operation made stable',
    ['api-stability-increased'],
    (s) => (getKey(s)['x-stability-level'] = 'stable'),
    (s) => (getKey(s)['x-stability-level'] = 'beta'),
  ),
  edit(
    'an unknown stability level',
    ['api-invalid-stability-level'],
    (s) => (getKey(s)['x-stability-level'] = 'experimental'),
  ),
  edit('an operationId changed', ['api-operation-id-removed'], (s) => (getKey(s).operationId = 'readKey')),
  edit(
    'an operationId given',
    ['api-operation-id-added'],
    (s) => (getKey(s).operationId = 'getKey'),
    (s) => delete getKey(s).operationId,
  ),
  edit('a tag removed from an operation', ['api-tag-removed'], (s) => (getKey(s).tags = [])),
  edit('a tag added to an operation', ['api-tag-added'], (s) => getKey(s).tags.push('Usage')),
  edit('a tag renamed', ['api-tag-removed', 'api-tag-added'], (s) => (getKey(s).tags = ['ApiKeys'])),
  // Parameters.
  edit('a new required query parameter', ['new-required-request-parameter'], (s) =>
    list(s).parameters.push({ name: 'tenant', in: 'query', required: true, schema: { type: 'string' } }),
  ),
  edit('a new required header parameter', ['new-required-request-parameter'], (s) =>
    getKey(s).parameters.push({ name: 'X-Workspace', in: 'header', required: true, schema: { type: 'string' } }),
  ),
  edit('a new optional query parameter', ['new-optional-request-parameter'], (s) =>
    list(s).parameters.push({ name: 'order', in: 'query', schema: { type: 'string', enum: ['asc', 'desc'] } }),
  ),
  edit(
    'an optional parameter made required',
    ['request-parameter-became-required'],
    (s) => (param(list(s), 'limit').required = true),
  ),
  edit(
    'a required parameter made optional',
    ['request-parameter-became-optional'],
    (s) => (param(list(s), 'limit').required = false),
    (s) => (param(list(s), 'limit').required = true),
  ),
  edit('a query parameter removed', ['request-parameter-removed'], (s) => {
    list(s).parameters = list(s).parameters.filter((p: Json) => p.name !== 'offset');
  }),
  edit(
    'a deprecated parameter removed',
    ['request-parameter-removed-with-deprecation'],
    (s) => (list(s).parameters = list(s).parameters.filter((p: Json) => p.name !== 'offset')),
    (s) => (param(list(s), 'offset').deprecated = true),
  ),
  edit(
    'a parameter removed before its sunset',
    ['request-parameter-removed-before-sunset'],
    (s) => (list(s).parameters = list(s).parameters.filter((p: Json) => p.name !== 'offset')),
    (s) => Object.assign(param(list(s), 'offset'), { deprecated: true, 'x-sunset': SUNSET_LATER }),
  ),
  edit(
    'a parameter removed whose sunset cannot be read',
    ['request-parameter-sunset-parse'],
    (s) => (list(s).parameters = list(s).parameters.filter((p: Json) => p.name !== 'offset')),
    (s) => Object.assign(param(list(s), 'offset'), { deprecated: true, 'x-sunset': 'someday' }),
  ),
  edit('a parameter deprecated', ['request-parameter-deprecated'], (s) => (param(list(s), 'limit').deprecated = true)),
  edit(
    'a deprecated parameter reactivated',
    ['request-parameter-reactivated'],
    (s) => delete param(list(s), 'limit').deprecated,
    (s) => (param(list(s), 'limit').deprecated = true),
  ),
  edit(
    "a deprecated parameter's sunset removed",
    ['request-parameter-sunset-deleted'],
    (s) => delete param(list(s), 'limit')['x-sunset'],
    (s) => Object.assign(param(list(s), 'limit'), { deprecated: true, 'x-sunset': SUNSET_LATER }),
  ),
  // oasdiff RequestParameterSunsetChangedCheck: an earlier sunset errs only once it is past.
  edit(
    "a deprecated parameter's sunset brought forward into the past",
    ['request-parameter-sunset-date-changed-too-small'],
    (s) => (param(list(s), 'limit')['x-sunset'] = '2020-01-01'),
    (s) => Object.assign(param(list(s), 'limit'), { deprecated: true, 'x-sunset': SUNSET_LATER }),
  ),
  edit(
    "a deprecated parameter's sunset brought forward, still to come",
    [],
    (s) => (param(list(s), 'limit')['x-sunset'] = '2999-01-01'),
    (s) => Object.assign(param(list(s), 'limit'), { deprecated: true, 'x-sunset': SUNSET_LATER }),
  ),
  projectEdit("a path parameter's style changed", 'error', ['project-request-parameter-style-changed'], (s) => {
    param(getKey(s), 'hash').style = 'label';
  }),
  projectEdit("a query parameter's explode changed", 'error', ['project-request-parameter-explode-changed'], (s) => {
    param(list(s), 'limit').explode = false;
  }),
  // Security.
  projectEdit(
    'a security alternative removed (standard keys no longer list versions)',
    'error',
    ['api-security-removed'],
    (s) => (list(s).security = [{ bearerAuth: ['management'] }]),
    { override: true },
  ),
  edit('a security alternative added', ['api-security-added'], (s) => getKey(s).security.push({ apiKeyHeader: [] })),
  projectEdit(
    'a role added to a security requirement',
    'error',
    ['api-security-scope-added'],
    (s) => (getKey(s).security = [{ bearerAuth: ['management', 'standard'] }]),
    { override: true },
  ),
  edit(
    'a role removed from a security requirement',
    ['api-security-scope-removed'],
    (s) => (getKey(s).security = [{ bearerAuth: [] }]),
  ),
  projectEdit(
    'security on operations that had none',
    'error',
    ['api-global-security-added'],
    (s) => (s.security = [{ bearerAuth: [] }]),
    {
      override: true,
      setup: (s) => {
        s.security = [];
        for (const operation of operations(s)) delete operation.security;
      },
    },
  ),
  projectEdit(
    'security on an operation that had none, with no global security',
    'error',
    ['api-security-added'],
    (s) => (getKey(s).security = [{ bearerAuth: ['management'] }]),
    {
      override: true,
      setup: (s) => {
        s.security = [];
        delete getKey(s).security;
      },
    },
  ),
  edit(
    'a global security alternative added where every operation has its own',
    ['api-global-security-added'],
    (s) => s.security.push({ apiKeyHeader: [] }),
    (s) => (s.security = [{ bearerAuth: ['management'] }]),
  ),
  edit(
    'a global security alternative removed',
    ['api-global-security-removed'],
    (s) => s.security.pop(),
    (s) => (s.security = [{ bearerAuth: ['management'] }, { apiKeyHeader: [] }]),
  ),
  edit(
    'a role added to the global security',
    ['api-global-security-scope-added'],
    (s) => (s.security = [{ bearerAuth: ['management', 'standard'] }]),
    (s) => (s.security = [{ bearerAuth: ['management'] }]),
  ),
  edit(
    'a role removed from the global security',
    ['api-global-security-scope-removed'],
    (s) => (s.security = [{ bearerAuth: [] }]),
    (s) => (s.security = [{ bearerAuth: ['management'] }]),
  ),
  edit('a security scheme added', ['api-security-component-added'], (s) => {
    s.components.securitySchemes.apiKeyHeader = { type: 'apiKey', in: 'header', name: 'X-API-Key' };
  }),
  edit(
    'an unused security scheme removed',
    ['api-security-component-removed'],
    (s) => delete s.components.securitySchemes.apiKeyHeader,
    (s) => (s.components.securitySchemes.apiKeyHeader = { type: 'apiKey', in: 'header', name: 'X-API-Key' }),
  ),
  edit("a security scheme's type changed", ['api-security-component-type-changed'], (s) => {
    s.components.securitySchemes.bearerAuth = { type: 'apiKey', in: 'header', name: 'Authorization' };
  }),
  ...oauthEdits(),
  // The document.
  edit(
    'an unused schema removed',
    ['api-schema-removed'],
    (s) => delete schemas(s).LegacyKey,
    (s) => (schemas(s).LegacyKey = { type: 'object' }),
  ),
  edit(
    'a webhook added',
    ['webhook-added'],
    (s) => (s.webhooks = { keyDisabled: { post: { responses: { '200': { description: 'ok' } } } } }),
  ),
  edit(
    'a webhook removed',
    ['webhook-removed'],
    (s) => delete s.webhooks.keyDisabled,
    (s) => (s.webhooks = { keyDisabled: { post: { responses: { '200': { description: 'ok' } } } } }),
  ),
  edit(
    'a breaking change with info.version unchanged',
    ['api-removed-without-deprecation', 'api-version-not-bumped'],
    (s) => delete s.paths[KEY].post,
    addPost,
  ),
  edit(
    'a breaking change in a minor version',
    ['api-path-removed-without-deprecation', 'api-major-version-not-bumped'],
    (s) => {
      delete s.paths[KEY];
      s.info.version = `${s.info.version.split('.')[0]}.99.0`;
    },
  ),
  edit(
    'a breaking change with info.version lowered',
    ['api-path-removed-without-deprecation', 'api-version-decreased'],
    (s) => {
      delete s.paths[KEY];
      s.info.version = '0.0.1';
    },
  ),
  edit('info.version bumped, nothing else', [], (s) => (s.info.version = '2.1.0')),
  projectEdit(
    'a description changed',
    'info',
    ['project-documentation-changed'],
    (s) => (getKey(s).description = 'Reads one API key.'),
  ),
];

function oauthEdits(): BatteryEdit[] {
  const setup = (s: Json) => {
    s.components.securitySchemes.oauth = {
      type: 'oauth2',
      flows: {
        authorizationCode: {
          authorizationUrl: 'https://auth.example.com/authorize',
          tokenUrl: 'https://auth.example.com/token',
          scopes: { 'keys:read': 'Read keys', 'keys:write': 'Write keys' },
        },
      },
    };
  };
  const flow = (s: Json) => s.components.securitySchemes.oauth.flows.authorizationCode;
  return [
    edit(
      "an OAuth scheme's authorization URL changed",
      ['api-security-component-oauth-url-changed'],
      (s) => {
        flow(s).authorizationUrl = 'https://login.example.com/authorize';
      },
      setup,
    ),
    edit(
      "an OAuth scheme's token URL changed",
      ['api-security-component-oauth-token-url-changed'],
      (s) => {
        flow(s).tokenUrl = 'https://login.example.com/token';
      },
      setup,
    ),
    edit(
      'an OAuth scope added',
      ['api-security-component-oauth-scope-added'],
      (s) => (flow(s).scopes['keys:admin'] = 'Administer keys'),
      setup,
    ),
    edit(
      'an OAuth scope removed',
      ['api-security-component-oauth-scope-removed'],
      (s) => delete flow(s).scopes['keys:write'],
      setup,
    ),
    edit(
      'an OAuth scope described otherwise',
      ['api-security-component-oauth-scope-changed'],
      (s) => (flow(s).scopes['keys:read'] = 'List keys'),
      setup,
    ),
  ];
}

export const BATTERY: BatteryEdit[] = [
  ...BATTERY_OPERATIONS,
  ...BATTERY_REQUESTS,
  ...BATTERY_RESPONSES,
  ...BATTERY_EDGES,
];
