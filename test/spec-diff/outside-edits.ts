// Edits of this project's openapi.yaml, each modelled on one test case of oasdiff's checker
// (checker/check_*_test.go at v1.28.0), each with the rule id and level that oasdiff v1.28.0
// gives that kind of change (checker/rules.go: ERR is error, WARN warning, INFO info).
//
// The first batch was written by someone who had not read this project's engine
// (scripts/spec-diff/engine) nor its own battery, from oasdiff's rule registry and test cases
// alone, so that the engine is held against edits its author did not choose. The later batches
// were added while fixing the engine, from oasdiff's test cases and source in the same way.
// outside-edits.test.ts runs them.
//
// Each edit names the oasdiff test case it follows (test file and function), then says what it
// does here. `setup` (optional) changes both sides first, for a case that needs a starting point
// this spec does not have (a deprecated operation, a second media type...); `edit` then changes the
// revision only. `knownGap` marks an edit the engine still gets wrong, with why: the test expects
// it to keep failing, so that a fix shows up.

// Specs edited in place, many levels deep: typing every level would say nothing more.
// biome-ignore lint/suspicious/noExplicitAny: documents edited freely by the edits below
export type Json = Record<string, any>;

export type Level = 'error' | 'warning' | 'info';

export type OutsideEdit = {
  /** The oasdiff test case it follows (file and function), then what it does to this spec. */
  title: string;
  /** Applied to both sides before `edit`, for a starting point this spec lacks. */
  setup?: (doc: Json) => void;
  /** Applied to the revision only. */
  edit: (doc: Json) => void;
  /** The rule id oasdiff v1.28.0 reports for it. */
  id: string;
  /** Its level: ERR error, WARN warning, INFO info. */
  level: Level;
  /** Set when the engine is known to miss it, saying why. */
  knownGap?: string;
  /**
   * Where this project deliberately reports the rule louder than oasdiff: the level it reports
   * instead. The finding must still carry oasdiff's id and say, in its override note, oasdiff's own
   * level (`level` above), so that the deviation is declared rather than silent.
   */
  projectOverride?: Level;
};

const KEY = '/keys/{hash}';
const DESTINATION = '/observability/destinations/{id}';
const VERSIONS = '/presets/{slug}/versions';

const getKey = (doc: Json): Json => doc.paths[KEY].get;
const updateDestination = (doc: Json): Json => doc.paths[DESTINATION].patch;
const listVersions = (doc: Json): Json => doc.paths[VERSIONS].get;
const param = (operation: Json, name: string): Json => {
  const found = (operation.parameters as Json[]).find((p) => p.name === name);
  if (!found) throw new Error(`no parameter ${name}`);
  return found;
};
const schemaOf = (doc: Json, name: string): Json => doc.components.schemas[name];
const update = (doc: Json): Json => schemaOf(doc, 'ObservabilityDestinationUpdate');
const updateField = (doc: Json, name: string): Json => update(doc).properties[name];
const limit = (doc: Json): Json => param(listVersions(doc), 'limit').schema;
const offset = (doc: Json): Json => param(listVersions(doc), 'offset').schema;
const slug = (doc: Json): Json => param(listVersions(doc), 'slug').schema;
const hash = (doc: Json): Json => param(getKey(doc), 'hash').schema;
const ifMatch = (doc: Json): Json => param(updateDestination(doc), 'If-Match');
const requestBody = (doc: Json): Json => updateDestination(doc).requestBody;
const keyOk = (doc: Json): Json => getKey(doc).responses['200'];

/** A second operation on /keys/{hash}, so that one can go while the path stays. */
const addDeleteKey = (doc: Json) => {
  doc.paths[KEY].delete = {
    operationId: 'deleteKey',
    tags: ['Keys'],
    security: [{ bearerAuth: ['management'] }],
    parameters: [{ name: 'hash', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }],
    responses: { '204': { description: 'Deleted.' } },
  };
};
/** A second security scheme, sent in a header of its own. */
const addHeaderKeyScheme = (doc: Json) => {
  doc.components.securitySchemes.headerKey = { type: 'apiKey', in: 'header', name: 'X-Api-Key' };
};
const webhook = () => ({
  post: {
    operationId: 'destinationDisabled',
    requestBody: {
      content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } },
    },
    responses: { '204': { description: 'Received.' } },
  },
});

const oauthScheme = () => ({
  type: 'oauth2',
  flows: {
    authorizationCode: {
      authorizationUrl: 'https://auth.example.org/authorize',
      tokenUrl: 'https://auth.example.org/token',
      scopes: { read: 'Read' },
    },
  },
});

export const outsideEdits: OutsideEdit[] = [
  // ---- paths and operations -------------------------------------------------------------------
  {
    title: 'check_api_removed_test TestBreaking_DeletedPath: the preset versions path is deleted',
    edit: (d) => {
      delete d.paths[VERSIONS];
    },
    id: 'api-path-removed-without-deprecation',
    level: 'error',
  },
  {
    title: 'check_api_removed_test TestBreaking_DeletedOp: DELETE /keys/{hash} goes, GET stays on the path',
    setup: addDeleteKey,
    edit: (d) => {
      delete d.paths[KEY].delete;
    },
    id: 'api-removed-without-deprecation',
    level: 'error',
  },
  {
    title: 'check_api_removed_test TestBreaking_PathDeprecationNoSunset: a deprecated GET without sunset, path deleted',
    setup: (d) => {
      listVersions(d).deprecated = true;
    },
    edit: (d) => {
      delete d.paths[VERSIONS];
    },
    id: 'api-path-removed-with-deprecation',
    level: 'info',
  },
  {
    title: 'check_api_removed_test TestBreaking_RemoveBeforeSunset: a deprecated path removed before its sunset date',
    setup: (d) => {
      listVersions(d).deprecated = true;
      listVersions(d)['x-sunset'] = '2099-12-31';
    },
    edit: (d) => {
      delete d.paths[VERSIONS];
    },
    id: 'api-path-removed-before-sunset',
    level: 'error',
  },
  {
    title: 'check_api_removed_test TestBreaking_DeprecationNoSunset: a deprecated DELETE without sunset is removed',
    setup: (d) => {
      addDeleteKey(d);
      d.paths[KEY].delete.deprecated = true;
    },
    edit: (d) => {
      delete d.paths[KEY].delete;
    },
    id: 'api-removed-with-deprecation',
    level: 'info',
  },
  {
    title: 'check_api_removed_test TestBreaking_RemoveBeforeSunset (operation): DELETE removed before its sunset',
    setup: (d) => {
      addDeleteKey(d);
      d.paths[KEY].delete.deprecated = true;
      d.paths[KEY].delete['x-sunset'] = '2099-06-30';
    },
    edit: (d) => {
      delete d.paths[KEY].delete;
    },
    id: 'api-removed-before-sunset',
    level: 'error',
  },
  {
    title: 'check_api_added_test TestApiAdded_DetectsNewPathsAndNewOperations: a new GET /presets/{slug}',
    edit: (d) => {
      d.paths['/presets/{slug}'] = {
        get: {
          operationId: 'getPreset',
          parameters: [{ name: 'slug', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'The preset.' } },
        },
      };
    },
    id: 'endpoint-added',
    level: 'info',
  },
  {
    title: 'check_api_added_test TestApiAdded_DetectsModifiedPathsWithPathParam: DELETE added beside GET /keys/{hash}',
    edit: addDeleteKey,
    id: 'endpoint-added',
    level: 'info',
  },
  {
    title: 'check_api_deprecation_test TestBreaking_DeprecationWithoutSunsetNoPolicy: getKey deprecated, no sunset',
    edit: (d) => {
      getKey(d).deprecated = true;
    },
    id: 'endpoint-deprecated',
    level: 'info',
  },
  {
    title: 'check_api_deprecation_test TestBreaking_DeprecationWithProperSunset: getKey deprecated with a far sunset',
    edit: (d) => {
      getKey(d).deprecated = true;
      getKey(d)['x-sunset'] = '2099-01-01';
    },
    id: 'endpoint-deprecated-with-sunset',
    level: 'info',
  },
  {
    title: 'check_api_deprecation_test TestApiDeprecated_DetectsReactivatedOperations: listPresetVersions undeprecated',
    setup: (d) => {
      listVersions(d).deprecated = true;
    },
    edit: (d) => {
      delete listVersions(d).deprecated;
    },
    id: 'endpoint-reactivated',
    level: 'info',
  },
  {
    title: 'check_api_deprecation_test TestBreaking_DeprecationWithInvalidSunset: a sunset that is not a date',
    edit: (d) => {
      getKey(d).deprecated = true;
      getKey(d)['x-sunset'] = 'next spring';
    },
    id: 'api-deprecated-sunset-parse',
    level: 'error',
  },
  {
    title: 'check_api_sunset_changed_test TestBreaking_SunsetDeletedForDeprecatedEndpoint: x-sunset dropped',
    setup: (d) => {
      getKey(d).deprecated = true;
      getKey(d)['x-sunset'] = '2099-01-01';
    },
    edit: (d) => {
      delete getKey(d)['x-sunset'];
    },
    id: 'sunset-deleted',
    level: 'error',
  },
  {
    title: 'check_api_stability_level_test TestBreaking_StabilityLevelDecreased: getKey from stable to beta',
    setup: (d) => {
      getKey(d)['x-stability-level'] = 'stable';
    },
    edit: (d) => {
      getKey(d)['x-stability-level'] = 'beta';
    },
    id: 'api-stability-decreased',
    level: 'error',
  },
  {
    title: 'check_api_stability_level_test TestBreaking_StabilityLevelIncreased: getKey from beta to stable',
    setup: (d) => {
      getKey(d)['x-stability-level'] = 'beta';
    },
    edit: (d) => {
      getKey(d)['x-stability-level'] = 'stable';
    },
    id: 'api-stability-increased',
    level: 'info',
  },
  {
    title: 'check_api_stability_level_test TestBreaking_InvalidStabilityLevelInRevision: an unknown stability level',
    edit: (d) => {
      getKey(d)['x-stability-level'] = 'experimental';
    },
    id: 'api-invalid-stability-level',
    level: 'error',
  },
  {
    title: 'check_api_operation_id_updated_test TestOperationIdUpdated: getKey renamed fetchKey',
    edit: (d) => {
      getKey(d).operationId = 'fetchKey';
    },
    id: 'api-operation-id-removed',
    level: 'info',
  },
  {
    title: 'check_api_operation_id_updated_test TestOperationIdAdded: an operation without id gets one',
    setup: (d) => {
      delete listVersions(d).operationId;
    },
    edit: (d) => {
      listVersions(d).operationId = 'listPresetVersions';
    },
    id: 'api-operation-id-added',
    level: 'info',
  },
  {
    title: 'check_api_tag_updated_test TestTagAdded: getKey gains a Usage tag',
    edit: (d) => {
      getKey(d).tags = ['Keys', 'Usage'];
    },
    id: 'api-tag-added',
    level: 'info',
  },
  {
    title: 'check_api_tag_updated_test TestTagRemoved: listPresetVersions loses its tags',
    edit: (d) => {
      listVersions(d).tags = [];
    },
    id: 'api-tag-removed',
    level: 'info',
  },
  {
    title: 'check_webhook_updated_test TestWebhookAddedAndRemoved (added): a destinationDisabled webhook',
    edit: (d) => {
      d.webhooks = { destinationDisabled: webhook() };
    },
    id: 'webhook-added',
    level: 'info',
  },
  {
    title: 'check_webhook_updated_test TestWebhookAddedAndRemoved (removed): the destinationDisabled webhook goes',
    setup: (d) => {
      d.webhooks = { destinationDisabled: webhook() };
    },
    edit: (d) => {
      delete d.webhooks;
    },
    id: 'webhook-removed',
    level: 'error',
  },

  // ---- security -------------------------------------------------------------------------------
  {
    // oasdiff says info; the project errs on purpose (engine/rules.ts, its overrides), and says so.
    title: 'check_api_security_updated_test TestAPISecurityScopeAdded: getKey also takes the standard role',
    edit: (d) => {
      getKey(d).security = [{ bearerAuth: ['management', 'standard'] }];
    },
    id: 'api-security-scope-added',
    level: 'info',
    projectOverride: 'error',
  },
  {
    title: 'check_api_security_updated_test TestAPISecurityScopeRemoved: getKey no longer names a role',
    edit: (d) => {
      getKey(d).security = [{ bearerAuth: [] }];
    },
    id: 'api-security-scope-removed',
    level: 'info',
  },
  {
    title: 'check_api_security_updated_test TestAPISecurityAdded: getKey accepts a header key as well',
    setup: addHeaderKeyScheme,
    edit: (d) => {
      getKey(d).security.push({ headerKey: [] });
    },
    id: 'api-security-added',
    level: 'info',
  },
  {
    // oasdiff says info; the project errs on purpose (engine/rules.ts, its overrides), and says so.
    title: 'check_api_security_updated_test TestAPISecurityDeleted: getKey drops the header key alternative',
    setup: (d) => {
      addHeaderKeyScheme(d);
      getKey(d).security.push({ headerKey: [] });
    },
    edit: (d) => {
      getKey(d).security = [{ bearerAuth: ['management'] }];
    },
    id: 'api-security-removed',
    level: 'info',
    projectOverride: 'error',
  },
  {
    title: 'check_api_security_updated_test TestAPIGlobalSecurityyAdded: the document accepts a header key too',
    setup: addHeaderKeyScheme,
    edit: (d) => {
      d.security.push({ headerKey: [] });
    },
    id: 'api-global-security-added',
    level: 'info',
  },
  {
    title: 'check_api_security_updated_test TestAPIGlobalSecurityyDeleted: the document-wide requirement goes',
    edit: (d) => {
      delete d.security;
    },
    id: 'api-global-security-removed',
    level: 'info',
  },
  {
    title: 'check_api_security_updated_test TestAPIGlobalSecurityScopeAdded: the global bearer names a role',
    edit: (d) => {
      d.security = [{ bearerAuth: ['management'] }];
    },
    id: 'api-global-security-scope-added',
    level: 'info',
  },
  {
    title: 'check_api_security_updated_test TestAPIGlobalSecurityScopeRemoved: the global bearer drops its role',
    setup: (d) => {
      d.security = [{ bearerAuth: ['management'] }];
    },
    edit: (d) => {
      d.security = [{ bearerAuth: [] }];
    },
    id: 'api-global-security-scope-removed',
    level: 'info',
  },
  {
    title: 'check_components_security_updated_test TestComponentSecurityAdded: a headerKey scheme is declared',
    edit: addHeaderKeyScheme,
    id: 'api-security-component-added',
    level: 'info',
  },
  {
    title: 'check_components_security_updated_test TestComponentSecurityRemoved: the headerKey scheme goes',
    setup: addHeaderKeyScheme,
    edit: (d) => {
      delete d.components.securitySchemes.headerKey;
    },
    id: 'api-security-component-removed',
    level: 'info',
  },
  {
    title: 'check_components_security_updated_test TestComponentSecurityTypeUpdated: bearerAuth from http to apiKey',
    edit: (d) => {
      d.components.securitySchemes.bearerAuth = { type: 'apiKey', in: 'header', name: 'Authorization' };
    },
    id: 'api-security-component-type-changed',
    level: 'info',
  },

  // ---- parameters -----------------------------------------------------------------------------
  {
    title:
      'check_new_request_non_path_parameter_test TestNewRequestNonPathParameter_DetectsNewRequiredPathsAndNewOperations: a required query',
    edit: (d) => {
      listVersions(d).parameters.push({ name: 'status', in: 'query', required: true, schema: { type: 'string' } });
    },
    id: 'new-required-request-parameter',
    level: 'error',
  },
  {
    title:
      'check_new_request_non_path_parameter_test TestNewRequestNonPathParameter_DetectsNewPathsAndNewOperations: an optional query',
    edit: (d) => {
      listVersions(d).parameters.push({ name: 'order', in: 'query', required: false, schema: { type: 'string' } });
    },
    id: 'new-optional-request-parameter',
    level: 'info',
  },
  {
    title: 'check_new_request_non_path_default_parameter_test (required): a required path-level query on /keys/{hash}',
    edit: (d) => {
      d.paths[KEY].parameters = [{ name: 'fields', in: 'query', required: true, schema: { type: 'string' } }];
    },
    id: 'new-required-request-default-parameter-to-existing-path',
    level: 'error',
  },
  {
    title:
      'check_new_request_non_path_default_parameter_test (optional): an optional path-level header on /keys/{hash}',
    edit: (d) => {
      d.paths[KEY].parameters = [{ name: 'X-Trace', in: 'header', required: false, schema: { type: 'string' } }];
    },
    id: 'new-optional-request-default-parameter-to-existing-path',
    level: 'info',
  },
  {
    title: 'check_request_parameter_removed_test TestBreaking_DeletedParameter: the limit query is removed',
    edit: (d) => {
      listVersions(d).parameters = listVersions(d).parameters.filter((p: Json) => p.name !== 'limit');
    },
    id: 'request-parameter-removed',
    level: 'warning',
  },
  {
    title: 'check_request_parameter_removed_test TestBreaking_ParameterDeprecationNoSunset: a deprecated limit removed',
    setup: (d) => {
      param(listVersions(d), 'limit').deprecated = true;
    },
    edit: (d) => {
      listVersions(d).parameters = listVersions(d).parameters.filter((p: Json) => p.name !== 'limit');
    },
    id: 'request-parameter-removed-with-deprecation',
    level: 'info',
  },
  {
    title:
      'check_request_parameter_required_value_updated_test TestBreaking_HeaderParamBecameRequired: If-Match required',
    edit: (d) => {
      ifMatch(d).required = true;
    },
    id: 'request-parameter-became-required',
    level: 'error',
  },
  {
    title:
      'check_request_parameter_required_value_updated_test TestBreaking_HeaderParamBecameOptional: If-Match optional again',
    setup: (d) => {
      ifMatch(d).required = true;
    },
    edit: (d) => {
      ifMatch(d).required = false;
    },
    id: 'request-parameter-became-optional',
    level: 'info',
  },
  {
    title: 'check_request_parameters_type_changed_test TestRequestPathParamTypeChanged: slug from string to integer',
    edit: (d) => {
      slug(d).type = 'integer';
    },
    id: 'request-parameter-type-changed',
    level: 'error',
  },
  {
    title:
      'check_request_parameters_type_changed_test TestRequestPathParamTypeIntegerToNumber: limit integer to number',
    setup: (d) => {
      delete limit(d).format;
    },
    edit: (d) => {
      limit(d).type = 'number';
    },
    id: 'request-parameter-type-generalized',
    level: 'info',
  },
  {
    title: 'check_request_parameters_max_updated_test TestRequestParameterMaxDecreased: limit maximum 100 to 50',
    edit: (d) => {
      limit(d).maximum = 50;
    },
    id: 'request-parameter-max-decreased',
    level: 'error',
  },
  {
    title: 'check_request_parameters_max_updated_test TestRequestParameterMaxIncreased: limit maximum 100 to 200',
    edit: (d) => {
      limit(d).maximum = 200;
    },
    id: 'request-parameter-max-increased',
    level: 'info',
  },
  {
    title: 'check_request_parameters_min_updated_test TestRequestParameterMinIncreased: limit minimum 1 to 5',
    edit: (d) => {
      limit(d).minimum = 5;
    },
    id: 'request-parameter-min-increased',
    level: 'error',
  },
  {
    title: 'check_request_parameters_min_updated_test TestRequestParameterMinDecreased: limit minimum 1 to 0',
    edit: (d) => {
      limit(d).minimum = 0;
    },
    id: 'request-parameter-min-decreased',
    level: 'info',
  },
  {
    title: 'check_breaking_min_max_test TestBreaking_MaxSmaller (parameter, from none): limit had no maximum, gets 100',
    setup: (d) => {
      delete limit(d).maximum;
    },
    edit: (d) => {
      limit(d).maximum = 100;
    },
    id: 'request-parameter-max-set',
    level: 'warning',
  },
  {
    title: 'check_request_parameters_min_updated_test (min set from none): limit had no minimum, gets 1',
    setup: (d) => {
      delete limit(d).minimum;
    },
    edit: (d) => {
      limit(d).minimum = 1;
    },
    id: 'request-parameter-min-set',
    level: 'warning',
  },
  {
    title: 'check_request_parameters_exclusive_min_max_test TestRequestParameterExclusiveMaxDecreased: 101 to 51',
    setup: (d) => {
      delete limit(d).maximum;
      limit(d).exclusiveMaximum = 101;
    },
    edit: (d) => {
      limit(d).exclusiveMaximum = 51;
    },
    id: 'request-parameter-exclusive-max-decreased',
    level: 'error',
  },
  {
    title:
      'check_request_parameters_exclusive_min_max_test TestRequestParameterExclusiveMinSet: limit gets exclusiveMinimum',
    setup: (d) => {
      delete limit(d).minimum;
    },
    edit: (d) => {
      limit(d).exclusiveMinimum = 0;
    },
    id: 'request-parameter-exclusive-min-set',
    level: 'warning',
  },
  {
    title:
      'check_request_parameters_max_length_updated_test TestRequestParameterMaxLengthDecreasedCheck: slug 200 to 100',
    edit: (d) => {
      slug(d).maxLength = 100;
    },
    id: 'request-parameter-max-length-decreased',
    level: 'error',
  },
  {
    title:
      'check_request_parameters_max_length_updated_test TestRequestParameterMaxLengthIncreasedCheck: If-Match 512 to 1024',
    edit: (d) => {
      ifMatch(d).schema.maxLength = 1024;
    },
    id: 'request-parameter-max-length-increased',
    level: 'info',
  },
  {
    title: 'check_request_parameters_max_length_set_test TestRequestParameterMaxLengthSetCheck: hash gets maxLength 64',
    edit: (d) => {
      hash(d).maxLength = 64;
    },
    id: 'request-parameter-max-length-set',
    level: 'warning',
  },
  {
    title: 'check_request_parameters_min_length_updated_test TestRequestParameterMinLengthIncreasedCheck: hash 1 to 64',
    edit: (d) => {
      hash(d).minLength = 64;
    },
    id: 'request-parameter-min-length-increased',
    level: 'error',
  },
  {
    title: 'check_request_parameters_min_length_updated_test TestRequestParameterMinLengthDecreasedCheck: slug 1 to 0',
    edit: (d) => {
      slug(d).minLength = 0;
    },
    id: 'request-parameter-min-length-decreased',
    level: 'info',
  },
  {
    title:
      'check_request_parameter_pattern_added_or_changed_test TestRequestParameterPatternAdded: hash gets a pattern',
    edit: (d) => {
      hash(d).pattern = '^[0-9a-f]{64}$';
    },
    id: 'request-parameter-pattern-added',
    level: 'error',
  },
  {
    title:
      'check_request_parameter_pattern_added_or_changed_test TestRequestParameterPatternChanged: slug pattern changed',
    setup: (d) => {
      slug(d).pattern = '^[a-z0-9-]+$';
    },
    edit: (d) => {
      slug(d).pattern = '^[a-z][a-z0-9_]*$';
    },
    id: 'request-parameter-pattern-changed',
    level: 'warning',
  },
  {
    title:
      'check_request_parameter_pattern_added_or_changed_test TestRequestParameterPatternGeneralized: slug pattern to .*',
    setup: (d) => {
      slug(d).pattern = '^[a-z0-9-]+$';
    },
    edit: (d) => {
      slug(d).pattern = '.*';
    },
    id: 'request-parameter-pattern-generalized',
    level: 'info',
  },
  {
    title:
      'check_request_parameter_pattern_added_or_changed_test TestRequestParameterPatternRemoved: slug pattern dropped',
    setup: (d) => {
      slug(d).pattern = '^[a-z0-9-]+$';
    },
    edit: (d) => {
      delete slug(d).pattern;
    },
    id: 'request-parameter-pattern-removed',
    level: 'info',
  },
  {
    title: 'check_request_parameter_became_enum_test TestRequestParameterBecameEnum: slug limited to two values',
    edit: (d) => {
      slug(d).enum = ['support-agent', 'billing-agent'];
    },
    id: 'request-parameter-became-enum',
    level: 'error',
  },
  {
    title:
      'check_request_parameter_enum_value_updated_test TestRequestParameterEnumValueRemovedCheck: a slug value goes',
    setup: (d) => {
      slug(d).enum = ['support-agent', 'billing-agent', 'triage'];
    },
    edit: (d) => {
      slug(d).enum = ['support-agent', 'billing-agent'];
    },
    id: 'request-parameter-enum-value-removed',
    level: 'error',
  },
  {
    title:
      'check_request_parameter_enum_value_updated_test TestRequestParameterEnumValueAddedCheck: a slug value added',
    setup: (d) => {
      slug(d).enum = ['support-agent', 'billing-agent'];
    },
    edit: (d) => {
      slug(d).enum = ['support-agent', 'billing-agent', 'triage'];
    },
    id: 'request-parameter-enum-value-added',
    level: 'info',
  },
  {
    title:
      'check_request_parameter_x_extensible_enum_value_removed_test TestRequestParameterXExtensibleEnumValueRemoved: slug',
    setup: (d) => {
      slug(d)['x-extensible-enum'] = ['support-agent', 'billing-agent'];
    },
    edit: (d) => {
      slug(d)['x-extensible-enum'] = ['support-agent'];
    },
    id: 'request-parameter-x-extensible-enum-value-removed',
    level: 'error',
  },
  {
    title:
      'check_request_parameters_default_value_changed_test TestRequestParameterDefaultValueChanged: limit 50 to 20',
    edit: (d) => {
      limit(d).default = 20;
    },
    id: 'request-parameter-default-value-changed',
    level: 'error',
  },
  {
    title:
      'check_request_parameters_default_value_changed_test TestRequestParameterDefaultValueRemoved: limit default dropped',
    edit: (d) => {
      delete limit(d).default;
    },
    id: 'request-parameter-default-value-removed',
    level: 'error',
  },
  {
    title:
      'check_request_parameters_default_value_changed_test TestRequestParameterDefaultValueAdded: If-Match defaults to *',
    edit: (d) => {
      ifMatch(d).schema.default = '*';
    },
    id: 'request-parameter-default-value-added',
    level: 'error',
  },
  {
    title: 'check_request_parameter_deprecation_test TestParameterDeprecated_DetectsDeprecated: limit deprecated',
    edit: (d) => {
      param(listVersions(d), 'limit').deprecated = true;
    },
    id: 'request-parameter-deprecated',
    level: 'info',
  },
  {
    title: 'check_request_parameter_deprecation_test TestParameterDeprecated_DetectsReactivated: limit undeprecated',
    setup: (d) => {
      param(listVersions(d), 'limit').deprecated = true;
    },
    edit: (d) => {
      delete param(listVersions(d), 'limit').deprecated;
    },
    id: 'request-parameter-reactivated',
    level: 'info',
  },
  {
    title: 'nullable_wrapping_test TestParameterTypeArrayNullability (became nullable): limit type [integer, null]',
    edit: (d) => {
      limit(d).type = ['integer', 'null'];
    },
    id: 'request-parameter-became-nullable',
    level: 'info',
  },
  {
    title: 'nullable_wrapping_test TestParameterTypeArrayNullability (became not nullable): offset loses null',
    edit: (d) => {
      offset(d).type = 'integer';
    },
    id: 'request-parameter-became-not-nullable',
    level: 'error',
  },

  // ---- request body ---------------------------------------------------------------------------
  {
    title: 'check_request_body_removed_test TestRequestBodyRemoved: the PATCH body is removed',
    edit: (d) => {
      delete updateDestination(d).requestBody;
    },
    id: 'request-body-removed',
    level: 'error',
  },
  {
    title: 'check_request_body_required_value_updated_test TestRequestBodyBecameOptional: PATCH body optional',
    edit: (d) => {
      requestBody(d).required = false;
    },
    id: 'request-body-became-optional',
    level: 'info',
  },
  {
    title: 'check_request_body_required_value_updated_test TestRequestBodyBecameRequired: PATCH body required again',
    setup: (d) => {
      requestBody(d).required = false;
    },
    edit: (d) => {
      requestBody(d).required = true;
    },
    id: 'request-body-became-required',
    level: 'error',
  },
  {
    title: 'check_request_body_mediatype_updated_test TestRequestBodyMediaTypeAdded: merge-patch JSON accepted too',
    edit: (d) => {
      requestBody(d).content['application/merge-patch+json'] = {
        schema: { $ref: '#/components/schemas/ObservabilityDestinationUpdate' },
      };
    },
    id: 'request-body-media-type-added',
    level: 'info',
  },
  {
    title:
      'check_request_body_mediatype_updated_test TestRequestBodyMediaTypeRemoved: merge-patch JSON no longer taken',
    setup: (d) => {
      requestBody(d).content['application/merge-patch+json'] = {
        schema: { $ref: '#/components/schemas/ObservabilityDestinationUpdate' },
      };
    },
    edit: (d) => {
      delete requestBody(d).content['application/merge-patch+json'];
    },
    id: 'request-body-media-type-removed',
    level: 'error',
  },

  // ---- request properties ---------------------------------------------------------------------
  {
    title: 'check_request_property_max_length_updated_test TestRequestPropertyMaxLengthDecreasedCheck: name 256 to 128',
    edit: (d) => {
      updateField(d, 'name').maxLength = 128;
    },
    id: 'request-property-max-length-decreased',
    level: 'error',
  },
  {
    title: 'check_request_property_max_length_updated_test TestRequestPropertyMaxLengthIncreasedCheck: name 256 to 512',
    edit: (d) => {
      updateField(d, 'name').maxLength = 512;
    },
    id: 'request-property-max-length-increased',
    level: 'info',
  },
  {
    title: 'check_request_property_max_length_set_test TestRequestPropertyMaxLengthSetCheck: name had no maxLength',
    setup: (d) => {
      delete updateField(d, 'name').maxLength;
    },
    edit: (d) => {
      updateField(d, 'name').maxLength = 256;
    },
    id: 'request-property-max-length-set',
    level: 'warning',
  },
  {
    title: 'check_request_property_min_length_updated_test TestRequestPropertyMinLengthIncreased: name 1 to 3',
    edit: (d) => {
      updateField(d, 'name').minLength = 3;
    },
    id: 'request-property-min-length-increased',
    level: 'error',
  },
  {
    title: 'check_request_property_min_length_updated_test TestRequestPropertyMinLengthDecreased: name 1 to 0',
    edit: (d) => {
      updateField(d, 'name').minLength = 0;
    },
    id: 'request-property-min-length-decreased',
    level: 'info',
  },
  {
    title: 'check_request_property_max_updated_test TestRequestPropertyMaxDecreasedCheck: sampling_rate max 1 to 0.5',
    edit: (d) => {
      updateField(d, 'sampling_rate').maximum = 0.5;
    },
    id: 'request-property-max-decreased',
    level: 'error',
  },
  {
    title: 'check_request_property_max_updated_test TestRequestPropertyMaxIncreasingCheck: sampling_rate max 1 to 2',
    edit: (d) => {
      updateField(d, 'sampling_rate').maximum = 2;
    },
    id: 'request-property-max-increased',
    level: 'info',
  },
  {
    title: 'check_request_property_max_set_test TestRequestPropertyMaxSetCheck: sampling_rate had no maximum',
    setup: (d) => {
      delete updateField(d, 'sampling_rate').maximum;
    },
    edit: (d) => {
      updateField(d, 'sampling_rate').maximum = 1;
    },
    id: 'request-property-max-set',
    level: 'warning',
  },
  {
    title: 'check_request_property_min_updated_test TestRequestPropertyMinIncreasedCheck: sampling_rate min to 0.01',
    edit: (d) => {
      updateField(d, 'sampling_rate').minimum = 0.01;
    },
    id: 'request-property-min-increased',
    level: 'error',
  },
  {
    title: 'check_request_property_min_updated_test TestRequestPropertyMinDecreasedCheck: sampling_rate min to 0',
    edit: (d) => {
      updateField(d, 'sampling_rate').minimum = 0;
    },
    id: 'request-property-min-decreased',
    level: 'info',
  },
  {
    title: 'check_request_property_exclusive_min_max_test TestRequestPropertyExclusiveMaxDecreased: sampling_rate',
    setup: (d) => {
      delete updateField(d, 'sampling_rate').maximum;
      updateField(d, 'sampling_rate').exclusiveMaximum = 2;
    },
    edit: (d) => {
      updateField(d, 'sampling_rate').exclusiveMaximum = 1.5;
    },
    id: 'request-property-exclusive-max-decreased',
    level: 'error',
  },
  {
    title: 'check_request_property_type_changed_test TestRequestPropertyTypeChangedCheck: enabled boolean to string',
    edit: (d) => {
      updateField(d, 'enabled').type = 'string';
    },
    id: 'request-property-type-changed',
    level: 'error',
  },
  {
    title: 'check_request_property_pattern_added_or_changed_test TestRequestPropertyPatternAdded: name gets a pattern',
    edit: (d) => {
      updateField(d, 'name').pattern = '^[A-Za-z0-9 ()_-]+$';
    },
    id: 'request-property-pattern-added',
    level: 'error',
  },
  {
    title:
      'check_request_property_pattern_added_or_changed_test TestRequestPropertyPatternRemoved: name pattern dropped',
    setup: (d) => {
      updateField(d, 'name').pattern = '^[A-Za-z0-9 ()_-]+$';
    },
    edit: (d) => {
      delete updateField(d, 'name').pattern;
    },
    id: 'request-property-pattern-removed',
    level: 'info',
  },
  {
    title:
      'check_request_property_enum_value_updated_test TestRequestPropertyEnumValueRemovedCheck: group logic loses or',
    edit: (d) => {
      schemaOf(d, 'FilterRuleGroup').properties.logic.enum = ['and'];
    },
    id: 'request-property-enum-value-removed',
    level: 'error',
  },
  {
    title:
      'check_request_property_enum_value_updated_test TestRequestPropertyEnumValueAddedCheck: group logic gains xor',
    edit: (d) => {
      schemaOf(d, 'FilterRuleGroup').properties.logic.enum = ['and', 'or', 'xor'];
    },
    id: 'request-property-enum-value-added',
    level: 'info',
  },
  {
    title:
      'check_request_property_x_extensible_enum_value_removed_test TestRequestPropertyXExtensibleEnumValueRemovedCheck',
    setup: (d) => {
      updateField(d, 'name')['x-extensible-enum'] = ['primary', 'secondary'];
    },
    edit: (d) => {
      updateField(d, 'name')['x-extensible-enum'] = ['primary'];
    },
    id: 'request-property-x-extensible-enum-value-removed',
    level: 'error',
  },
  {
    title: 'check_request_property_updated_test TestRequiredRequestPropertyAdded: a new required region field',
    edit: (d) => {
      update(d).properties.region = { type: 'string' };
      update(d).required = ['region'];
    },
    id: 'new-required-request-property',
    level: 'error',
  },
  {
    title: 'check_request_property_updated_test TestRequiredOptionalPropertyAdded: a new optional region field',
    edit: (d) => {
      update(d).properties.region = { type: 'string' };
    },
    id: 'new-optional-request-property',
    level: 'info',
  },
  {
    title: 'check_request_property_updated_test TestRequiredRequestPropertyRemoved: privacy_mode no longer taken',
    edit: (d) => {
      delete update(d).properties.privacy_mode;
    },
    id: 'request-property-removed',
    level: 'warning',
  },
  {
    title: 'check_request_property_required_updated_test TestRequestPropertyMarkedRequired: name becomes required',
    edit: (d) => {
      update(d).required = ['name'];
    },
    id: 'request-property-became-required',
    level: 'error',
  },
  {
    title: 'check_request_property_required_updated_test TestRequestPropertyMarkedOptional: name optional again',
    setup: (d) => {
      update(d).required = ['name'];
    },
    edit: (d) => {
      delete update(d).required;
    },
    id: 'request-property-became-optional',
    level: 'info',
  },
  {
    title: 'check_request_property_deprecation_test TestRequestPropertyDeprecationCheck: privacy_mode deprecated',
    edit: (d) => {
      updateField(d, 'privacy_mode').deprecated = true;
    },
    id: 'request-property-deprecated',
    level: 'info',
  },
  {
    title:
      'check_request_property_one_of_updated_test TestRequestPropertyOneOfAdded: api_key_hashes takes a string too',
    edit: (d) => {
      updateField(d, 'api_key_hashes').oneOf.push({ type: 'string', maxLength: 128 });
    },
    id: 'request-property-one-of-added',
    level: 'info',
  },
  {
    title: 'check_request_property_one_of_updated_test TestRequestPropertyOneOfRemoved: the string alternative goes',
    setup: (d) => {
      updateField(d, 'api_key_hashes').oneOf.push({ type: 'string', maxLength: 128 });
    },
    edit: (d) => {
      updateField(d, 'api_key_hashes').oneOf.pop();
    },
    id: 'request-property-one-of-removed',
    level: 'error',
  },
  {
    title: 'check_request_property_any_of_updated_test TestRequestPropertyAnyOfAdded: name anyOf gains a branch',
    setup: (d) => {
      updateField(d, 'name').anyOf = [{ minLength: 1 }];
    },
    edit: (d) => {
      updateField(d, 'name').anyOf.push({ maxLength: 10 });
    },
    id: 'request-property-any-of-added',
    level: 'info',
  },
  {
    title: 'check_request_property_all_of_updated_test TestRequestPropertyAllOfAdded: name gets an allOf constraint',
    edit: (d) => {
      updateField(d, 'name').allOf = [{ maxLength: 100 }];
    },
    id: 'request-property-all-of-added',
    level: 'error',
  },
  {
    title: 'check_request_property_became_not_nuallable_test TestRequestPropertyBecameNullable31: name admits null',
    edit: (d) => {
      updateField(d, 'name').type = ['string', 'null'];
    },
    id: 'request-property-became-nullable',
    level: 'info',
  },
  {
    title:
      'check_request_property_became_not_nuallable_test TestRequestPropertyBecameNotNullable31: filter_rules not null',
    edit: (d) => {
      schemaOf(d, 'FilterRules').type = 'object';
    },
    id: 'request-property-became-not-nullable',
    level: 'error',
  },
  {
    title: 'check_request_property_min_items_increased_test (property): a group needs at least two rules',
    edit: (d) => {
      schemaOf(d, 'FilterRuleGroup').properties.rules.minItems = 2;
    },
    id: 'request-property-min-items-increased',
    level: 'error',
  },
  {
    title:
      'check_request_property_default_value_changed_test TestRequestPropertyDefaultValueChanged: group logic default',
    edit: (d) => {
      schemaOf(d, 'FilterRuleGroup').properties.logic.default = 'or';
    },
    id: 'request-property-default-value-changed',
    level: 'info',
  },
  {
    title:
      'check_request_property_write_only_read_only_test TestRequestOptionalPropertyBecameReadOnly: enabled readOnly',
    edit: (d) => {
      updateField(d, 'enabled').readOnly = true;
    },
    id: 'request-optional-property-became-read-only',
    level: 'info',
  },

  // ---- responses ------------------------------------------------------------------------------
  {
    title: 'check_response_status_updated_test TestResponseSuccessStatusRemoved: getKey no longer answers 200',
    edit: (d) => {
      delete getKey(d).responses['200'];
    },
    id: 'response-success-status-removed',
    level: 'error',
  },
  {
    title: 'check_response_status_updated_test TestResponseSuccessStatusAdded: listPresetVersions may answer 206',
    edit: (d) => {
      listVersions(d).responses['206'] = { description: 'A partial page.' };
    },
    id: 'response-success-status-added',
    level: 'info',
  },
  {
    title: 'check_response_status_updated_test TestResponseNonSuccessStatusRemoved: the PATCH no longer answers 412',
    edit: (d) => {
      delete updateDestination(d).responses['412'];
    },
    id: 'response-non-success-status-removed',
    level: 'info',
  },
  {
    title: 'check_response_status_updated_test TestResponseNonSuccessStatusAdded: the PATCH may answer 409',
    edit: (d) => {
      updateDestination(d).responses['409'] = { $ref: '#/components/responses/PreconditionFailed' };
    },
    id: 'response-non-success-status-added',
    level: 'info',
  },
  {
    title: 'check_response_mediatype_updated_test TestAddNewMediaType: getKey 200 also in YAML',
    edit: (d) => {
      keyOk(d).content['application/yaml'] = { schema: { $ref: '#/components/schemas/ApiKeyResponse' } };
    },
    id: 'response-media-type-added',
    level: 'info',
  },
  {
    title: 'check_response_mediatype_updated_test TestDeleteNewMediaType: getKey 200 no longer in YAML',
    setup: (d) => {
      keyOk(d).content['application/yaml'] = { schema: { $ref: '#/components/schemas/ApiKeyResponse' } };
    },
    edit: (d) => {
      delete keyOk(d).content['application/yaml'];
    },
    id: 'response-media-type-removed',
    level: 'error',
  },
  {
    title: 'check_response_required_property_updated_test TestResponseRequiredPropertyRemoved: the key loses label',
    edit: (d) => {
      const key = schemaOf(d, 'ApiKey');
      delete key.properties.label;
      key.required = key.required.filter((n: string) => n !== 'label');
    },
    id: 'response-required-property-removed',
    level: 'error',
  },
  {
    title: 'check_response_required_property_updated_test TestResponseRequiredPropertyAdded: the key gains a kind',
    edit: (d) => {
      const key = schemaOf(d, 'ApiKey');
      key.properties.kind = { $ref: '#/components/schemas/KeyKind' };
      key.required.push('kind');
    },
    id: 'response-required-property-added',
    level: 'info',
  },
  {
    title: 'check_response_optional_property_updated_test TestResponseOptionalPropertyUpdatedCheck: preset model gone',
    edit: (d) => {
      delete schemaOf(d, 'PresetConfig').properties.model;
    },
    id: 'response-optional-property-removed',
    level: 'warning',
  },
  {
    title: 'check_response_optional_property_updated_test TestResponseOptionalPropertyAddedCheck: preset top_p added',
    edit: (d) => {
      schemaOf(d, 'PresetConfig').properties.top_p = { type: 'number' };
    },
    id: 'response-optional-property-added',
    level: 'info',
  },
  {
    title: 'check_response_property_became_optional_test TestResponsePropertyBecameOptionalCheck: label not required',
    edit: (d) => {
      const key = schemaOf(d, 'ApiKey');
      key.required = key.required.filter((n: string) => n !== 'label');
    },
    id: 'response-property-became-optional',
    level: 'error',
  },
  {
    title:
      'check_response_property_became_required_test TestResponsePropertyBecameRequiredlCheck: preset model required',
    edit: (d) => {
      schemaOf(d, 'PresetConfig').required = ['model'];
    },
    id: 'response-property-became-required',
    level: 'info',
  },
  {
    title: 'check_breaking_response_type_changed_test TestBreaking_RespTypeNumberToString: total_count to string',
    edit: (d) => {
      const count = schemaOf(d, 'PresetVersionList').properties.total_count;
      count.type = 'string';
      delete count.format;
      delete count.minimum;
      delete count.maximum;
    },
    id: 'response-property-type-changed',
    level: 'error',
  },
  {
    title: 'check_breaking_response_type_changed_test TestBreaking_RespTypeIntegerToNumber: total_count to number',
    setup: (d) => {
      delete schemaOf(d, 'PresetVersionList').properties.total_count.format;
    },
    edit: (d) => {
      schemaOf(d, 'PresetVersionList').properties.total_count.type = 'number';
    },
    id: 'response-property-type-generalized',
    level: 'error',
  },
  {
    title: 'check_breaking_response_type_changed_test TestBreaking_RespTypeNumberToInteger: usage to integer',
    edit: (d) => {
      schemaOf(d, 'ApiKey').properties.usage.type = 'integer';
    },
    id: 'response-property-type-specialized',
    level: 'info',
  },
  {
    title: 'check_response_property_enum_value_added_test TestResponsePropertyEnumValueAdded: a honeycomb type',
    edit: (d) => {
      schemaOf(d, 'DestinationType').enum.push('honeycomb');
    },
    id: 'response-property-enum-value-added',
    level: 'warning',
  },
  {
    title: 'check_response_property_enum_value_removed_test TestResponsePropertyEnumValueRemoved: the ramp type goes',
    edit: (d) => {
      const type = schemaOf(d, 'DestinationType');
      type.enum = type.enum.filter((t: string) => t !== 'ramp');
    },
    id: 'response-property-enum-value-removed',
    level: 'info',
  },
  {
    title: 'check_request_property_became_not_nuallable_test TestResponsePropertyBecameNullable31: creator_id nullable',
    edit: (d) => {
      schemaOf(d, 'PresetVersion').properties.creator_id.type = ['string', 'null'];
    },
    id: 'response-property-became-nullable',
    level: 'error',
  },
  {
    title: 'nullable_type_utils_test TestResponseTypeArrayBecameNotNullable: system_prompt loses null',
    edit: (d) => {
      schemaOf(d, 'PresetVersion').properties.system_prompt.type = 'string';
    },
    id: 'response-property-became-not-nullable',
    level: 'info',
  },
  {
    title: 'check_response_property_one_of_updated_test TestResponsePropertyOneOfAdded: api_key_hashes may be a string',
    edit: (d) => {
      schemaOf(d, 'ObservabilityDestination').properties.api_key_hashes.oneOf.push({ type: 'string' });
    },
    id: 'response-property-one-of-added',
    level: 'error',
  },
  {
    title: 'check_response_property_one_of_updated_test TestResponsePropertyOneOfRemoved: the string alternative goes',
    setup: (d) => {
      schemaOf(d, 'ObservabilityDestination').properties.api_key_hashes.oneOf.push({ type: 'string' });
    },
    edit: (d) => {
      schemaOf(d, 'ObservabilityDestination').properties.api_key_hashes.oneOf.pop();
    },
    id: 'response-property-one-of-removed',
    level: 'info',
  },
  {
    title: 'check_response_property_any_of_updated_test TestResponsePropertyAnyOfAdded: a honeycomb config branch',
    edit: (d) => {
      schemaOf(d, 'DestinationConfig').anyOf.push({
        type: 'object',
        title: 'honeycomb',
        required: ['apiKey'],
        properties: { apiKey: { $ref: '#/components/schemas/ConfigSecret' } },
      });
    },
    id: 'response-property-any-of-added',
    level: 'info',
  },
  {
    title:
      'check_response_property_any_of_updated_test TestResponsePropertyAnyOfRemoved: the webhook config branch goes',
    edit: (d) => {
      const config = schemaOf(d, 'DestinationConfig');
      config.anyOf = config.anyOf.filter((b: Json) => b.$ref !== '#/components/schemas/WebhookConfig');
    },
    id: 'response-property-any-of-removed',
    level: 'info',
  },
  {
    title: 'check_response_property_all_of_updated_test TestResponsePropertyAllOfAdded: creator_id gets an allOf',
    edit: (d) => {
      schemaOf(d, 'PresetVersion').properties.creator_id.allOf = [{ maxLength: 128 }];
    },
    id: 'response-property-all-of-added',
    level: 'info',
  },
  {
    title: 'check_response_pattern_added_or_changed_test TestResponsePropertyPatternAdded: label gets a pattern',
    edit: (d) => {
      schemaOf(d, 'ApiKey').properties.label.pattern = '^sk-or-v1-';
    },
    id: 'response-property-pattern-added',
    level: 'info',
  },
  {
    title: 'check_response_pattern_added_or_changed_test TestResponsePropertyPatternChanged: hash pattern changed',
    edit: (d) => {
      schemaOf(d, 'ApiKey').properties.hash.pattern = '^[0-9a-fA-F]{64}$';
    },
    id: 'response-property-pattern-changed',
    level: 'info',
  },
  {
    title: 'check_response_pattern_added_or_changed_test TestResponsePropertyPatternRemoved: hash pattern dropped',
    edit: (d) => {
      delete schemaOf(d, 'ApiKey').properties.hash.pattern;
    },
    id: 'response-property-pattern-removed',
    level: 'info',
  },
  {
    title: 'check_response_property_deprecation_test TestResponsePropertyDeprecationCheck: the key name deprecated',
    edit: (d) => {
      schemaOf(d, 'ApiKey').properties.name.deprecated = true;
    },
    id: 'response-property-deprecated',
    level: 'info',
  },
  {
    title:
      'check_response_property_default_value_changed_test TestResponsePropertyDefaultValueUpdatedCheck: logic default',
    edit: (d) => {
      schemaOf(d, 'FilterRuleGroup').properties.logic.default = 'or';
    },
    id: 'response-property-default-value-changed',
    level: 'info',
  },
  {
    title: 'check_response_property_default_value_changed_test TestResponsePropertyDefaultValueRemovedCheck: enabled',
    edit: (d) => {
      delete schemaOf(d, 'FilterRules').properties.enabled.default;
    },
    id: 'response-property-default-value-removed',
    level: 'info',
  },

  // ---- response headers -----------------------------------------------------------------------
  {
    title: 'check_response_header_added_test TestResponseHeaderAdded: getKey 200 sends X-Request-Id',
    edit: (d) => {
      keyOk(d).headers['X-Request-Id'] = { schema: { type: 'string' } };
    },
    id: 'response-header-added',
    level: 'info',
  },
  {
    title: 'check_breaking_test TestBreaking_OptionalResponseHeaderRemoved: the PATCH 200 no longer sends ETag',
    edit: (d) => {
      delete updateDestination(d).responses['200'].headers.ETag;
    },
    id: 'optional-response-header-removed',
    level: 'warning',
  },
  {
    title: 'check_breaking_test TestBreaking_ResponseHeaderRemoved: a required ETag is no longer sent',
    setup: (d) => {
      d.components.headers.ETag.required = true;
    },
    edit: (d) => {
      delete updateDestination(d).responses['200'].headers.ETag;
    },
    id: 'required-response-header-removed',
    level: 'error',
  },
  {
    title: 'check_breaking_test TestBreaking_ResponseHeaderParamRequiredDisabled: ETag was required, now optional',
    setup: (d) => {
      d.components.headers.ETag.required = true;
    },
    edit: (d) => {
      d.components.headers.ETag.required = false;
    },
    id: 'response-header-became-optional',
    level: 'error',
  },
  {
    title:
      'check_response_header_type_changed_test TestResponseHeaderTypeChanged_StringDateTimeToInteger: Last-Modified',
    setup: (d) => {
      keyOk(d).headers['Last-Modified'] = { schema: { type: 'string', format: 'date-time' } };
    },
    edit: (d) => {
      keyOk(d).headers['Last-Modified'] = { schema: { type: 'integer' } };
    },
    id: 'response-header-type-changed',
    level: 'error',
  },
  {
    title:
      'check_response_header_type_changed_test TestResponseHeaderTypeChanged_IntegerToNumberIsGeneralized: Retry-After',
    setup: (d) => {
      delete d.components.headers.RetryAfter.schema.format;
    },
    edit: (d) => {
      d.components.headers.RetryAfter.schema.type = 'number';
    },
    id: 'response-header-type-generalized',
    level: 'error',
  },
  {
    title:
      'check_response_header_type_changed_test TestResponseHeaderTypeChanged_StringToIntegerIsCompatible: RateLimit',
    edit: (d) => {
      const schema = d.components.headers.RateLimit.schema;
      schema.type = 'integer';
      delete schema.maxLength;
    },
    id: 'response-header-type-compatible',
    level: 'info',
  },
  {
    title: 'check_response_header_became_nullable_test TestResponseHeaderBecameNullable: ETag may be null',
    edit: (d) => {
      d.components.headers.ETag.schema.type = ['string', 'null'];
    },
    id: 'response-header-became-nullable',
    level: 'error',
  },

  // ---- components -----------------------------------------------------------------------------
  {
    title: 'check_breaking_test TestBreaking_SchemaRemoved: an unused LegacyKey schema is deleted',
    setup: (d) => {
      d.components.schemas.LegacyKey = { type: 'object', properties: { id: { type: 'string' } } };
    },
    edit: (d) => {
      delete d.components.schemas.LegacyKey;
    },
    id: 'api-schema-removed',
    level: 'info',
  },
  // ---- second batch: shared components, nesting, transitions, rarer keywords ------------------
  {
    title:
      'check_request_property_max_length_updated_test TestRequestPropertyMaxLengthDecreasedCheck: via ConfigString',
    edit: (d) => {
      schemaOf(d, 'ConfigString').maxLength = 1024;
    },
    id: 'request-property-max-length-decreased',
    level: 'error',
  },
  {
    // First written expecting response-property-type-changed (error). Checked against oasdiff's
    // source: a response format change is judged from the revision back to the base, and oasdiff
    // holds a date within a date-time, so date-time to date is a specialization (info).
    title:
      'check_response_property_type_changed_test TestResponsePropertyFormatChangedCheck (formats reversed): Timestamp date-time to date',
    edit: (d) => {
      schemaOf(d, 'Timestamp').format = 'date';
    },
    id: 'response-property-type-specialized',
    level: 'info',
  },
  {
    title:
      'check_response_property_type_changed_test TestResponsePropertyFormatChangedCheck: Uuid format uuid to hostname',
    edit: (d) => {
      schemaOf(d, 'Uuid').format = 'hostname';
    },
    id: 'response-property-type-changed',
    level: 'error',
  },
  {
    title: 'check_request_parameters_type_changed_test TestRequestPathParamFormatRemoved: destination id loses uuid',
    edit: (d) => {
      delete param(updateDestination(d), 'id').schema.format;
    },
    id: 'request-parameter-type-generalized',
    level: 'info',
  },
  {
    title: 'check_request_parameters_type_changed_test TestRequestPathParamFormatChanged: destination id uuid to uri',
    edit: (d) => {
      param(updateDestination(d), 'id').schema.format = 'uri';
    },
    id: 'request-parameter-type-changed',
    level: 'error',
  },
  {
    title: 'check_breaking_request_type_changed_test TestBreaking_ReqTypeIntegerToNumber (property): sampling_rate',
    setup: (d) => {
      updateField(d, 'sampling_rate').type = 'integer';
      delete updateField(d, 'sampling_rate').format;
    },
    edit: (d) => {
      updateField(d, 'sampling_rate').type = 'number';
    },
    id: 'request-property-type-generalized',
    level: 'info',
  },
  {
    title: 'check_request_property_type_changed_test TestRequestBodyTypeChangedCheck: the PATCH body becomes an array',
    edit: (d) => {
      update(d).type = 'array';
    },
    id: 'request-body-type-changed',
    level: 'error',
  },
  {
    title:
      'check_response_property_type_changed_test TestResponseSchemaTypeChangedCheck: the version list becomes a string',
    edit: (d) => {
      schemaOf(d, 'PresetVersionList').type = 'string';
    },
    id: 'response-body-type-changed',
    level: 'error',
  },
  {
    title:
      'check_request_property_became_not_nuallable_test TestResponseBodyBecameNullable31: the key body may be null',
    edit: (d) => {
      schemaOf(d, 'ApiKeyResponse').type = ['object', 'null'];
    },
    id: 'response-body-became-nullable',
    level: 'error',
  },
  {
    title:
      'check_request_property_became_not_nuallable_test TestRequestBodyBecameNullable31: the PATCH body may be null',
    edit: (d) => {
      update(d).type = ['object', 'null'];
    },
    id: 'request-body-became-nullable',
    level: 'info',
  },
  {
    title: 'nullable_wrapping_test TestNullableWrapping_ResponseProperty: preset_id wrapped in oneOf with null',
    edit: (d) => {
      schemaOf(d, 'PresetVersion').properties.preset_id = {
        oneOf: [{ $ref: '#/components/schemas/Uuid' }, { type: 'null' }],
      };
    },
    id: 'response-property-became-nullable',
    level: 'error',
  },
  {
    title: 'nullable_wrapping_test TestNullableWrapping_RequestProperties: privacy_mode wrapped in oneOf with null',
    edit: (d) => {
      updateField(d, 'privacy_mode').oneOf = [{ type: 'boolean' }, { type: 'null' }];
      delete updateField(d, 'privacy_mode').type;
    },
    id: 'request-property-became-nullable',
    level: 'info',
  },
  {
    title: 'nullable_wrapping_test TestNullableUnwrapping_SingleFindingPerLevel: api_key_hashes unwrapped from oneOf',
    edit: (d) => {
      const field = updateField(d, 'api_key_hashes');
      delete field.oneOf;
      field.$ref = '#/components/schemas/ApiKeyHashList';
    },
    id: 'request-property-became-not-nullable',
    level: 'error',
  },
  {
    title: 'check_response_mediatype_name_updated_test TestGeneralizeMediaTypeName: getKey 200 problem+json to json',
    setup: (d) => {
      keyOk(d).content = { 'application/problem+json': keyOk(d).content['application/json'] };
    },
    edit: (d) => {
      keyOk(d).content = { 'application/json': keyOk(d).content['application/problem+json'] };
    },
    id: 'response-media-type-name-generalized',
    level: 'error',
  },
  {
    title: 'check_response_mediatype_name_updated_test TestSpecializeMediaTypeName: getKey 200 json to problem+json',
    edit: (d) => {
      keyOk(d).content = { 'application/problem+json': keyOk(d).content['application/json'] };
    },
    id: 'response-media-type-name-specialized',
    level: 'info',
  },
  {
    title:
      'check_request_property_updated_test TestRequiredRequestPropertyAddedWithDefault: a required field with default',
    edit: (d) => {
      update(d).properties.region = { type: 'string', default: 'us' };
      update(d).required = ['region'];
    },
    id: 'new-required-request-property-with-default',
    level: 'error',
  },
  {
    title: 'check_request_property_required_updated_test TestRequestPropertyWithDefaultMarkedRequired: filter enabled',
    edit: (d) => {
      schemaOf(d, 'FilterRules').required = ['groups', 'enabled'];
    },
    id: 'request-property-became-required-with-default',
    level: 'error',
  },
  {
    title:
      'check_request_property_pattern_added_or_changed_test TestRequestPropertyPatternChanged: name pattern changed',
    setup: (d) => {
      updateField(d, 'name').pattern = '^[A-Za-z0-9 ()_-]+$';
    },
    edit: (d) => {
      updateField(d, 'name').pattern = '^[A-Za-z][A-Za-z0-9 ]*$';
    },
    id: 'request-property-pattern-changed',
    level: 'warning',
  },
  {
    title:
      'check_request_property_pattern_added_or_changed_test TestRequestPropertyPatternGeneralized: name pattern to .*',
    setup: (d) => {
      updateField(d, 'name').pattern = '^[A-Za-z0-9 ()_-]+$';
    },
    edit: (d) => {
      updateField(d, 'name').pattern = '.*';
    },
    id: 'request-property-pattern-generalized',
    level: 'info',
  },
  {
    title: 'check_request_property_min_updated_test (min set from none): sampling_rate had no minimum',
    setup: (d) => {
      delete updateField(d, 'sampling_rate').minimum;
    },
    edit: (d) => {
      updateField(d, 'sampling_rate').minimum = 0.0001;
    },
    id: 'request-property-min-set',
    level: 'warning',
  },
  {
    title: 'check_request_property_exclusive_min_max_test TestRequestPropertyExclusiveMinIncreased: sampling_rate',
    setup: (d) => {
      delete updateField(d, 'sampling_rate').minimum;
      updateField(d, 'sampling_rate').exclusiveMinimum = 0;
    },
    edit: (d) => {
      updateField(d, 'sampling_rate').exclusiveMinimum = 0.1;
    },
    id: 'request-property-exclusive-min-increased',
    level: 'error',
  },
  {
    title:
      'check_request_property_all_of_updated_test TestRequestPropertyAllOfAdded (body): the PATCH body gets an allOf',
    edit: (d) => {
      update(d).allOf = [{ minProperties: 1 }];
    },
    id: 'request-body-all-of-added',
    level: 'error',
  },
  {
    title:
      'check_request_property_all_of_updated_test TestRequestPropertyAllOfAdded_AnnotationOnly_AtProperty_EmitsInfo',
    edit: (d) => {
      updateField(d, 'name').allOf = [{ description: 'Shown in the dashboard.' }];
    },
    id: 'request-property-all-of-added-annotation-only',
    level: 'info',
  },
  {
    title: 'check_request_property_all_of_updated_test TestRequestPropertyAllOfRemoved: name loses its allOf',
    setup: (d) => {
      updateField(d, 'name').allOf = [{ maxLength: 100 }];
    },
    edit: (d) => {
      delete updateField(d, 'name').allOf;
    },
    id: 'request-property-all-of-removed',
    level: 'warning',
  },
  {
    title: 'check_request_property_any_of_updated_test TestRequestPropertyAnyOfRemoved: name anyOf loses a branch',
    setup: (d) => {
      updateField(d, 'name').anyOf = [{ minLength: 1 }, { maxLength: 10 }];
    },
    edit: (d) => {
      updateField(d, 'name').anyOf.pop();
    },
    id: 'request-property-any-of-removed',
    level: 'error',
  },
  {
    title: 'check_request_property_dependent_required_changed_test TestRequestBodyDependentRequiredAdded: PATCH body',
    edit: (d) => {
      update(d).dependentRequired = { filter_rules: ['enabled'] };
    },
    id: 'request-body-dependent-required-added',
    level: 'error',
  },
  {
    title: 'check_request_property_property_names_updated_test TestRequestBodyPropertyNamesAdded: PATCH body names',
    edit: (d) => {
      update(d).propertyNames = { maxLength: 20 };
    },
    id: 'request-body-property-names-added',
    level: 'error',
  },
  {
    title:
      'check_response_property_property_names_updated_test TestResponsePropertyPropertyNamesRemoved: config headers',
    edit: (d) => {
      delete schemaOf(d, 'ConfigHeaders').propertyNames;
    },
    id: 'response-property-property-names-removed',
    level: 'error',
  },
  {
    title:
      'check_request_property_pattern_properties_updated_test TestRequestPropertyPatternPropertyAdded: config headers',
    edit: (d) => {
      schemaOf(d, 'ConfigHeaders').patternProperties = { '^X-': { type: 'string', maxLength: 256 } };
    },
    id: 'request-property-pattern-property-added',
    level: 'error',
  },
  {
    title: 'check_request_property_if_updated_test TestRequestPropertyIfAdded: name gets an if',
    edit: (d) => {
      updateField(d, 'name').if = { minLength: 100 };
    },
    id: 'request-property-if-added',
    level: 'error',
  },
  {
    title:
      'check_request_property_contains_updated_test TestRequestPropertyContainsAdded: the hash list, through oneOf',
    edit: (d) => {
      schemaOf(d, 'ApiKeyHashList').contains = { minLength: 64 };
    },
    id: 'request-property-contains-added',
    level: 'error',
  },
  {
    title: 'check_request_property_const_changed_test TestRequestPropertyConstChanged: group logic const and to or',
    setup: (d) => {
      schemaOf(d, 'FilterRuleGroup').properties.logic.const = 'and';
    },
    edit: (d) => {
      schemaOf(d, 'FilterRuleGroup').properties.logic.const = 'or';
    },
    id: 'request-property-const-changed',
    level: 'error',
  },
  {
    title: 'check_response_property_const_changed_test TestResponsePropertyConstAdded: the key disabled const false',
    edit: (d) => {
      schemaOf(d, 'ApiKey').properties.disabled.const = false;
    },
    id: 'response-property-const-added',
    level: 'info',
  },
  {
    title: 'check_request_property_unevaluated_updated_test TestRequestPropertyUnevaluatedAdded: filter group',
    edit: (d) => {
      schemaOf(d, 'FilterRuleGroup').unevaluatedProperties = false;
    },
    id: 'request-property-unevaluated-properties-added',
    level: 'error',
  },
  {
    title: 'check_request_parameters_max_items_updated_test TestRequestParameterMaxItemsDecreased: an ids query',
    setup: (d) => {
      listVersions(d).parameters.push({
        name: 'ids',
        in: 'query',
        schema: { type: 'array', maxItems: 10, items: { type: 'integer' } },
      });
    },
    edit: (d) => {
      param(listVersions(d), 'ids').schema.maxItems = 5;
    },
    id: 'request-parameter-max-items-decreased',
    level: 'error',
  },
  {
    title: 'check_request_parameters_min_items_updated_test TestRequestParameterMinItemsIncreased: an ids query',
    setup: (d) => {
      listVersions(d).parameters.push({
        name: 'ids',
        in: 'query',
        schema: { type: 'array', minItems: 1, items: { type: 'integer' } },
      });
    },
    edit: (d) => {
      param(listVersions(d), 'ids').schema.minItems = 2;
    },
    id: 'request-parameter-min-items-increased',
    level: 'error',
  },
  {
    title: 'check_request_parameter_removed_test TestBreaking_ParameterDeprecationFuture: limit removed before sunset',
    setup: (d) => {
      param(listVersions(d), 'limit').deprecated = true;
      param(listVersions(d), 'limit')['x-sunset'] = '2099-12-31';
    },
    edit: (d) => {
      listVersions(d).parameters = listVersions(d).parameters.filter((p: Json) => p.name !== 'limit');
    },
    id: 'request-parameter-removed-before-sunset',
    level: 'error',
  },
  {
    title: 'check_request_parameter_sunset_changed_test TestBreaking_SunsetDeletedForDeprecatedParameter: limit',
    setup: (d) => {
      param(listVersions(d), 'limit').deprecated = true;
      param(listVersions(d), 'limit')['x-sunset'] = '2099-12-31';
    },
    edit: (d) => {
      delete param(listVersions(d), 'limit')['x-sunset'];
    },
    id: 'request-parameter-sunset-deleted',
    level: 'error',
  },
  {
    title:
      'check_api_removed_test TestBreaking_RemoveEndpointWithInvalidSunset: a deprecated path with a bad sunset goes',
    setup: (d) => {
      listVersions(d).deprecated = true;
      listVersions(d)['x-sunset'] = 'soon';
    },
    edit: (d) => {
      delete d.paths[VERSIONS];
    },
    id: 'api-path-sunset-parse',
    level: 'error',
  },
  {
    title: 'check_response_property_enum_value_added_test TestResponsePropertyEnumValueAdded: a key kind, in an array',
    edit: (d) => {
      schemaOf(d, 'KeyKind').enum = ['management', 'standard', 'readonly'];
    },
    id: 'response-property-enum-value-added',
    level: 'warning',
  },
  {
    title: 'check_response_header_became_nullable_test TestResponseHeaderBecameNotNullable: ETag loses null',
    setup: (d) => {
      d.components.headers.ETag.schema.type = ['string', 'null'];
    },
    edit: (d) => {
      d.components.headers.ETag.schema.type = 'string';
    },
    id: 'response-header-became-not-nullable',
    level: 'info',
  },
  {
    title:
      'check_response_header_type_changed_test TestResponseHeaderTypeChanged_NumberToIntegerIsSpecialized: Retry-After',
    setup: (d) => {
      delete d.components.headers.RetryAfter.schema.format;
      d.components.headers.RetryAfter.schema.type = 'number';
    },
    edit: (d) => {
      d.components.headers.RetryAfter.schema.type = 'integer';
    },
    id: 'response-header-type-specialized',
    level: 'info',
  },
  {
    title:
      'check_response_discriminator_updated_test TestResponseDiscriminatorUpdatedCheckAdded: filter rules by operator',
    edit: (d) => {
      schemaOf(d, 'FilterRule').discriminator = { propertyName: 'operator' };
    },
    id: 'response-property-discriminator-added',
    level: 'info',
  },
  {
    title:
      'check_request_discriminator_updated_test TestRequestDiscriminatorUpdatedCheckAdded: filter rules by operator',
    edit: (d) => {
      schemaOf(d, 'FilterRule').discriminator = { propertyName: 'operator' };
    },
    id: 'request-property-discriminator-added',
    level: 'info',
  },
  {
    title: 'check_breaking_property_test TestBreaking_NestedProp (request): a numeric rule value becomes a string',
    edit: (d) => {
      schemaOf(d, 'NumericFilterRule').properties.value.type = 'string';
    },
    id: 'request-property-type-changed',
    level: 'error',
  },
  {
    title: 'check_response_required_property_updated_test TestResponseRequiredPropertyRemoved: nested in a list item',
    edit: (d) => {
      const version = schemaOf(d, 'PresetVersion');
      delete version.properties.creator_id;
      version.required = version.required.filter((n: string) => n !== 'creator_id');
    },
    id: 'response-required-property-removed',
    level: 'error',
  },
  {
    title:
      'check_api_deprecation_test TestBreaking_DeprecationWithoutSunset (stable, policy-free): x-stability-level kept',
    setup: (d) => {
      getKey(d)['x-stability-level'] = 'stable';
    },
    edit: (d) => {
      getKey(d).deprecated = true;
    },
    id: 'endpoint-deprecated',
    level: 'info',
  },
  {
    title: 'check_property_stability_level_test TestResponsePropertyStability_StableToDraft_Decreased: key usage',
    setup: (d) => {
      schemaOf(d, 'ApiKey').properties.usage['x-stability-level'] = 'stable';
    },
    edit: (d) => {
      schemaOf(d, 'ApiKey').properties.usage['x-stability-level'] = 'draft';
    },
    id: 'response-property-stability-decreased',
    level: 'error',
  },
  // ---- third batch: ranges, webhooks, lists of types, deep branches, OAuth -------------------
  {
    title: 'check_response_mediatype_updated_test TestDeleteNewMediaType (replaced by a range): json to application/*',
    edit: (d) => {
      keyOk(d).content = { 'application/*': keyOk(d).content['application/json'] };
    },
    id: 'response-media-type-removed',
    level: 'error',
  },
  {
    title: 'check_webhook_operation_test TestWebhookOperationChangesDetected: a webhook body becomes required',
    setup: (d) => {
      d.webhooks = { destinationDisabled: webhook() };
    },
    edit: (d) => {
      d.webhooks.destinationDisabled.post.requestBody.required = true;
    },
    id: 'request-body-became-required',
    level: 'error',
  },
  {
    title: 'check_webhook_operation_test TestWebhookOperationChangesDetected: a webhook body gains an optional field',
    setup: (d) => {
      d.webhooks = { destinationDisabled: webhook() };
    },
    edit: (d) => {
      d.webhooks.destinationDisabled.post.requestBody.content['application/json'].schema.properties.reason = {
        type: 'string',
      };
    },
    id: 'new-optional-request-property',
    level: 'info',
  },
  {
    title: 'list_of_types_core_test TestListOfTypesIntegration_SingleToList: temperature number or string',
    edit: (d) => {
      const config = schemaOf(d, 'PresetConfig').properties;
      config.temperature = { description: 'Sampling temperature.', oneOf: [{ type: 'number' }, { type: 'string' }] };
    },
    id: 'response-property-list-of-types-widened',
    level: 'error',
  },
  {
    title: 'list_of_types_core_test TestListOfTypesIntegration_ListToSingle: enabled was boolean or string',
    setup: (d) => {
      update(d).properties.enabled = { oneOf: [{ type: 'boolean' }, { type: 'string' }] };
    },
    edit: (d) => {
      update(d).properties.enabled = { type: 'boolean' };
    },
    id: 'request-property-list-of-types-narrowed',
    level: 'error',
  },
  {
    title: 'check_request_property_type_changed_test TestRequestPropertyTypeUnionNarrowedCheck: equality value',
    edit: (d) => {
      schemaOf(d, 'EqualityFilterRule').properties.value.type = 'string';
    },
    id: 'request-property-type-changed',
    level: 'error',
  },
  {
    title: 'check_response_required_property_updated_test TestResponseRequiredPropertyRemoved: in a oneOf branch',
    edit: (d) => {
      const rule = schemaOf(d, 'TextFilterRule');
      delete rule.properties.value;
      rule.required = ['field', 'operator'];
    },
    id: 'response-required-property-removed',
    level: 'error',
  },
  {
    title: 'check_response_optional_property_updated_test TestResponseOptionalPropertyUpdatedCheck: in an anyOf branch',
    edit: (d) => {
      delete schemaOf(d, 'LangfuseConfig').properties.baseUrl;
    },
    id: 'response-optional-property-removed',
    level: 'warning',
  },
  {
    title: 'check_response_required_property_updated_test TestResponseRequiredPropertyRemoved: in an anyOf branch',
    edit: (d) => {
      const config = schemaOf(d, 'LangfuseConfig');
      delete config.properties.publicKey;
      config.required = ['secretKey'];
    },
    id: 'response-required-property-removed',
    level: 'error',
  },
  {
    title: 'check_request_property_updated_test TestRequiredRequestPropertyAdded: deep, in each filter group',
    edit: (d) => {
      const group = schemaOf(d, 'FilterRuleGroup');
      group.properties.weight = { type: 'integer' };
      group.required = ['rules', 'weight'];
    },
    id: 'new-required-request-property',
    level: 'error',
  },
  {
    title:
      'check_request_property_enum_value_updated_test TestRequestPropertyEnumValueRemovedCheck: a filter field goes',
    edit: (d) => {
      const field = schemaOf(d, 'FilterField');
      field.enum = field.enum.filter((f: string) => f !== 'output');
    },
    id: 'request-property-enum-value-removed',
    level: 'error',
  },
  {
    title: 'check_response_property_enum_value_added_test TestResponsePropertyEnumValueAdded: a filter field added',
    edit: (d) => {
      schemaOf(d, 'FilterField').enum.push('latency');
    },
    id: 'response-property-enum-value-added',
    level: 'warning',
  },
  {
    title: 'check_response_property_became_optional_test TestResponsePropertyBecameOptionalCheck: filter groups',
    edit: (d) => {
      delete schemaOf(d, 'FilterRules').required;
    },
    id: 'response-property-became-optional',
    level: 'error',
  },
  {
    title:
      'check_breaking_response_type_changed_test TestResponsePropertyFormatChangedCheck ($ref swapped): updated_at',
    edit: (d) => {
      schemaOf(d, 'ObservabilityDestination').properties.updated_at = { $ref: '#/components/schemas/Uuid' };
    },
    id: 'response-property-type-changed',
    level: 'error',
  },
  {
    title: 'check_request_parameter_became_enum_test TestRequestParameterBecameEnum (header): If-Match limited to *',
    edit: (d) => {
      ifMatch(d).schema.enum = ['*'];
    },
    id: 'request-parameter-became-enum',
    level: 'error',
  },
  {
    title: 'check_request_parameters_type_changed_test TestRequestQueryHeaderTypeChanged: If-Match string to integer',
    edit: (d) => {
      ifMatch(d).schema = { type: 'integer' };
    },
    id: 'request-parameter-type-changed',
    level: 'error',
  },
  {
    title: 'check_breaking_test TestBreaking_NewRequiredHeaderParam: the PATCH needs an X-Workspace header',
    edit: (d) => {
      updateDestination(d).parameters.push({
        name: 'X-Workspace',
        in: 'header',
        required: true,
        schema: { type: 'string' },
      });
    },
    id: 'new-required-request-parameter',
    level: 'error',
  },
  {
    title:
      'check_breaking_test TestBreaking_OptionalResponseHeaderRemoved (shared response): 401 stops sending RateLimit',
    edit: (d) => {
      delete d.components.responses.Unauthorized.headers.RateLimit;
    },
    id: 'optional-response-header-removed',
    level: 'warning',
  },
  {
    title: 'check_response_property_deprecation_test TestResponsePropertyDeprecation_WithProperSunset: key name',
    edit: (d) => {
      const name = schemaOf(d, 'ApiKey').properties.name;
      name.deprecated = true;
      name['x-sunset'] = '2099-01-01';
    },
    id: 'response-property-deprecated-with-sunset',
    level: 'info',
  },
  {
    title: 'check_response_property_deprecation_test TestResponsePropertyDeprecation_DetectsReactivated: key name',
    setup: (d) => {
      schemaOf(d, 'ApiKey').properties.name.deprecated = true;
    },
    edit: (d) => {
      delete schemaOf(d, 'ApiKey').properties.name.deprecated;
    },
    id: 'response-property-reactivated',
    level: 'info',
  },
  {
    title: 'check_request_property_deprecation_test TestRequestPropertyDeprecation_WithProperSunset: privacy_mode',
    edit: (d) => {
      updateField(d, 'privacy_mode').deprecated = true;
      updateField(d, 'privacy_mode')['x-sunset'] = '2099-01-01';
    },
    id: 'request-property-deprecated-with-sunset',
    level: 'info',
  },
  {
    title: 'check_property_stability_level_test TestRequestPropertyStability_StableToDraft_Decreased: name',
    setup: (d) => {
      updateField(d, 'name')['x-stability-level'] = 'stable';
    },
    edit: (d) => {
      updateField(d, 'name')['x-stability-level'] = 'draft';
    },
    id: 'request-property-stability-decreased',
    level: 'error',
  },
  {
    title: 'check_components_security_updated_test TestComponentSecurityOauthScopeAdded: an OAuth scope added',
    setup: (d) => {
      d.components.securitySchemes.oauth = oauthScheme();
    },
    edit: (d) => {
      d.components.securitySchemes.oauth.flows.authorizationCode.scopes.admin = 'Administer';
    },
    id: 'api-security-component-oauth-scope-added',
    level: 'info',
  },
  {
    title: 'check_components_security_updated_test TestComponentSecurityOauthURLUpdated: authorization URL moved',
    setup: (d) => {
      d.components.securitySchemes.oauth = oauthScheme();
    },
    edit: (d) => {
      d.components.securitySchemes.oauth.flows.authorizationCode.authorizationUrl =
        'https://auth.example.org/v2/authorize';
    },
    id: 'api-security-component-oauth-url-changed',
    level: 'info',
  },
  {
    title: 'check_components_security_updated_test TestComponentSecurityOauthTokenUpdated: token URL moved',
    setup: (d) => {
      d.components.securitySchemes.oauth = oauthScheme();
    },
    edit: (d) => {
      d.components.securitySchemes.oauth.flows.authorizationCode.tokenUrl = 'https://auth.example.org/v2/token';
    },
    id: 'api-security-component-oauth-token-url-changed',
    level: 'info',
  },
  {
    title: 'check_request_property_type_changed_test TestRequestBodyTypeWideningMultiTypeNotBreaking (property): name',
    edit: (d) => {
      updateField(d, 'name').type = ['string', 'integer'];
    },
    id: 'request-property-type-generalized',
    level: 'info',
  },
  {
    title: 'check_response_property_type_changed_test TestResponseBodyTypeWideningStillBreaking (property): creator_id',
    edit: (d) => {
      schemaOf(d, 'PresetVersion').properties.creator_id.type = ['string', 'integer'];
    },
    id: 'response-property-type-generalized',
    level: 'error',
  },
  {
    // First written expecting request-parameter-type-changed (error). Checked against oasdiff's
    // source: a parameter's own type change is judged as text (not strongly typed), where a type
    // the parameter no longer takes, with none gained, is contained: a generalization (info).
    title: 'check_request_parameters_type_changed_test TestRequestQueryParamTypeChanged (a type dropped): offset',
    setup: (d) => {
      offset(d).type = ['integer', 'string', 'null'];
    },
    edit: (d) => {
      offset(d).type = ['integer', 'null'];
    },
    id: 'request-parameter-type-generalized',
    level: 'info',
  },
  {
    title:
      'check_webhook_operation_test TestWebhookOperationChangesDetected (operation removed): the webhook loses POST',
    setup: (d) => {
      d.webhooks = { destinationDisabled: { ...webhook(), put: webhook().post } };
    },
    edit: (d) => {
      delete d.webhooks.destinationDisabled.post;
    },
    id: 'api-removed-without-deprecation',
    level: 'error',
  },
  // ---- fourth batch: sunsets in the past, changed, unreadable ---------------------------------
  {
    title: 'check_api_deprecation_test TestBreaking_DeprecationWithEarlySunset: getKey deprecated, sunset already past',
    edit: (d) => {
      getKey(d).deprecated = true;
      getKey(d)['x-sunset'] = '2020-01-01';
    },
    id: 'api-sunset-date-too-small',
    level: 'error',
  },
  {
    title:
      'check_request_parameter_deprecation_test TestBreaking_ParameterDeprecationWithEarlySunset: limit, past sunset',
    edit: (d) => {
      param(listVersions(d), 'limit').deprecated = true;
      param(listVersions(d), 'limit')['x-sunset'] = '2020-01-01';
    },
    id: 'request-parameter-sunset-date-too-small',
    level: 'error',
  },
  {
    title: 'check_request_parameter_deprecation_test TestBreaking_ParameterDeprecationWithInvalidSunset: limit',
    edit: (d) => {
      param(listVersions(d), 'limit').deprecated = true;
      param(listVersions(d), 'limit')['x-sunset'] = 'whenever';
    },
    id: 'request-parameter-sunset-parse',
    level: 'error',
  },
  {
    title: 'check_request_property_deprecation_test TestRequestPropertyDeprecation_WithEarlySunset: privacy_mode',
    edit: (d) => {
      updateField(d, 'privacy_mode').deprecated = true;
      updateField(d, 'privacy_mode')['x-sunset'] = '2020-01-01';
    },
    id: 'request-property-sunset-date-too-small',
    level: 'error',
  },
  {
    title: 'check_response_property_deprecation_test TestResponsePropertyDeprecation_WithInvalidSunset: key name',
    edit: (d) => {
      const name = schemaOf(d, 'ApiKey').properties.name;
      name.deprecated = true;
      name['x-sunset'] = 'later';
    },
    id: 'response-property-deprecated-sunset-invalid',
    level: 'error',
  },
  {
    title: 'check_api_sunset_changed_test TestBreaking_SunsetModifiedForDeprecatedEndpoint: sunset moved into the past',
    setup: (d) => {
      getKey(d).deprecated = true;
      getKey(d)['x-sunset'] = '2099-01-01';
    },
    edit: (d) => {
      getKey(d)['x-sunset'] = '2020-01-01';
    },
    id: 'api-sunset-date-changed-too-small',
    level: 'error',
  },
  {
    title:
      'check_api_sunset_changed_test TestBreaking_SunsetModifiedToInvalidForDeprecatedEndpoint: an unreadable sunset',
    setup: (d) => {
      getKey(d).deprecated = true;
      getKey(d)['x-sunset'] = '2099-01-01';
    },
    edit: (d) => {
      getKey(d)['x-sunset'] = 'someday';
    },
    id: 'api-path-sunset-parse',
    level: 'error',
  },
  {
    title:
      'check_request_parameter_sunset_changed_test TestBreaking_SunsetModifiedForDeprecatedParameter: into the past',
    setup: (d) => {
      param(listVersions(d), 'limit').deprecated = true;
      param(listVersions(d), 'limit')['x-sunset'] = '2099-01-01';
    },
    edit: (d) => {
      param(listVersions(d), 'limit')['x-sunset'] = '2020-01-01';
    },
    id: 'request-parameter-sunset-date-changed-too-small',
    level: 'error',
  },
  {
    // oasdiff says info; the project errs on purpose (engine/rules.ts, its overrides), and says so.
    title: 'check_api_security_updated_test TestAPISecurityDeleted (requirement list dropped): getKey security removed',
    edit: (d) => {
      delete getKey(d).security;
    },
    id: 'api-security-removed',
    level: 'info',
    projectOverride: 'error',
  },
];

/** An edit oasdiff reports nothing for, of the rules named in `absent`, and nothing at error level. */
export type OutsideSilence = {
  title: string;
  setup?: (doc: Json) => void;
  edit: (doc: Json) => void;
  absent: string[];
  /** Set when the engine is known to report it anyway, saying why. */
  knownGap?: string;
};

const REMOVAL_IDS = [
  'api-removed-without-deprecation',
  'api-removed-with-deprecation',
  'api-removed-before-sunset',
  'api-path-sunset-parse',
];

export const outsideSilences: OutsideSilence[] = [
  {
    title: 'check_api_removed_test TestBreaking_DeprecationPast: a deprecated DELETE removed after its sunset',
    setup: (d) => {
      addDeleteKey(d);
      d.paths[KEY].delete.deprecated = true;
      d.paths[KEY].delete['x-sunset'] = '2020-01-01';
    },
    edit: (d) => {
      delete d.paths[KEY].delete;
    },
    absent: REMOVAL_IDS,
  },
  {
    title: 'check_request_parameter_removed_test TestBreaking_ParameterDeprecationPast: limit removed after its sunset',
    setup: (d) => {
      param(listVersions(d), 'limit').deprecated = true;
      param(listVersions(d), 'limit')['x-sunset'] = '2020-01-01';
    },
    edit: (d) => {
      listVersions(d).parameters = listVersions(d).parameters.filter((p: Json) => p.name !== 'limit');
    },
    absent: [
      'request-parameter-removed',
      'request-parameter-removed-with-deprecation',
      'request-parameter-removed-before-sunset',
      'request-parameter-sunset-parse',
    ],
  },
  {
    title:
      'check_request_body_mediatype_updated_test (pairing, as diff content_diff pairs names): json to merge-patch+json',
    edit: (d) => {
      const content = requestBody(d).content;
      content['application/merge-patch+json'] = content['application/json'];
      delete content['application/json'];
    },
    absent: ['request-body-media-type-removed', 'request-body-media-type-added'],
  },
];
