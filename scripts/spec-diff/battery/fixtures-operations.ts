// Pairs after oasdiff's fixtures of paths and operations: path variables renamed (data/param-rename,
// data/checker/request_parameter_default_value_changed_*_renamed, data/param-deprecation), and
// stability levels under oasdiff's default threshold, beta (data/deprecation, data/stability).
import { doc, type FixturePair, getBody, type Json, objectOf, withParameters } from './fixtures-kit.js';

/** GET `path` whose path parameter `variable` is declared on the path item. */
const shipment = (variable: string): Json => {
  const parameters = [{ in: 'path', name: variable, required: true, schema: { type: 'string', title: 'ID' } }];
  const paths = getBody(objectOf({ carrier: { type: 'string' } }), { operationId: 'getShipment' });
  return doc({ [`/shipments/{${variable}}`]: { parameters, ...paths['/orders'] } });
};

/** GET /parcels/{variable}, its path parameter with a default. */
const parcel = (variable: string, fallback: string): Json =>
  doc(
    withParameters(
      [{ in: 'path', name: variable, required: true, schema: { type: 'string', default: fallback } }],
      `/parcels/{${variable}}`,
    ),
  );

/** GET /labels/{variable}, its path parameter deprecated, with a sunset or not. */
const label = (variable: string, sunset?: string): Json =>
  doc(
    withParameters(
      [
        {
          in: 'path',
          name: variable,
          required: true,
          deprecated: true,
          schema: { type: 'string' },
          ...(sunset && { 'x-sunset': sunset }),
        },
      ],
      `/labels/{${variable}}`,
    ),
  );

/** GET /reports at a stability level (none: stable), with a required query parameter or not. */
const report = (level?: string, parameter = true): Json =>
  doc(
    withParameters(
      parameter ? [{ in: 'query', name: 'since', required: true, schema: { type: 'string' } }] : [],
      '/reports',
      {
        ...(level && { 'x-stability-level': level }),
      },
    ),
  );

/** GET /reports at `level`, answering an object whose `total` is at `totalLevel`. */
const reportBody = (level: string | undefined, totalLevel: string): Json =>
  doc(
    getBody(objectOf({ total: { type: 'integer', 'x-stability-level': totalLevel } }), {
      ...(level && { 'x-stability-level': level }),
    }),
  );

/** /reports with a GET at `level` and a POST of no level (stable), or no /reports at all. */
const reports = (level: string, kept: boolean): Json => {
  if (!kept) return doc({ '/health': report().paths['/reports'] });
  const paths = report(level).paths;
  paths['/reports'].post = { operationId: 'createReport', responses: { '201': { description: 'Created' } } };
  return doc(paths);
};

export const operationFixtures: FixturePair[] = [
  {
    title: 'check_breaking_test TestBreaking_PathParamRename: all checks, a path variable renamed, nothing else',
    before: shipment('shipmentId'),
    after: shipment('id'),
    ids: [],
    checks: 'all',
  },
  {
    title:
      'check_request_parameters_default_value_changed_test TestRequestParameterDefaultValueChangedAndRenamedParameter: a path variable renamed and its default changed',
    before: parcel('parcel_id', '2'),
    after: parcel('parcelId', '1'),
    ids: ['request-parameter-default-value-changed'],
    checks: 'single',
  },
  {
    title:
      'check_request_parameter_sunset_changed_test TestBreaking_SunsetDeletedForDeprecatedAndRenamedParameter: a deprecated path variable renamed, its sunset dropped',
    before: label('id', '2023-08-02'),
    after: label('labelId'),
    ids: ['request-parameter-sunset-deleted'],
    checks: 'single',
  },
  {
    title:
      'check_api_stability_level_test TestBreaking_StabilityLevelDecreased: all checks, an operation from beta to alpha',
    before: report('beta'),
    after: report('alpha'),
    ids: ['api-stability-decreased'],
    checks: 'all',
  },
  {
    title:
      'check_api_stability_level_test TestBreaking_StabilityLevelIncreased: all checks, from alpha to beta, below the threshold before',
    before: report('alpha'),
    after: report('beta'),
    ids: [],
    checks: 'all',
  },
  {
    title:
      'check_api_stability_level_test TestBreaking_InvalidStabilityLevelInBase: all checks, an unknown level dropped',
    before: report('invalid'),
    after: report(),
    ids: ['api-invalid-stability-level'],
    checks: 'all',
  },
  {
    title:
      'check_api_stability_level_test TestBreaking_InvalidStabilityLevelInRevision: all checks, an unknown level set',
    before: report(),
    after: report('invalid'),
    ids: ['api-invalid-stability-level'],
    checks: 'all',
  },
  {
    title:
      'check_request_parameter_removed_test TestBreaking_RemovedParameterForAlpha: all checks, a required parameter of an alpha operation removed',
    before: report('alpha'),
    after: report('alpha', false),
    ids: [],
    checks: 'all',
  },
  {
    title:
      'check_property_stability_level_test TestRequestPropertyStability_BelowThresholdEndpoint_NotReported: all checks, a property of a draft operation from stable to draft',
    before: reportBody('draft', 'stable'),
    after: reportBody('draft', 'draft'),
    ids: [],
    checks: 'all',
  },
  {
    title:
      'check_api_removed_test TestBreaking_RemovedPathForAlpha: a path whose operations are all alpha removed, nothing reported',
    before: report('alpha'),
    after: doc({}),
    ids: [],
    absent: ['api-path-removed-without-deprecation'],
    checks: 'single',
  },
  {
    title:
      'check_api_removed_test TestBreaking_RemovedPathForAlphaBreaking: a path of an alpha GET and a stable POST removed',
    before: reports('alpha', true),
    after: reports('alpha', false),
    ids: ['api-path-removed-without-deprecation'],
    checks: 'single',
  },
  {
    title:
      'check_api_deprecation_test TestBreaking_DeprecationForAlpha: an alpha operation deprecated, nothing reported',
    before: report('alpha'),
    after: doc(
      withParameters([{ in: 'query', name: 'since', required: true, schema: { type: 'string' } }], '/reports', {
        'x-stability-level': 'alpha',
        deprecated: true,
      }),
    ),
    ids: [],
    absent: ['endpoint-deprecated'],
    checks: 'single',
  },
  {
    title:
      'check_property_stability_level_test TestRequestPropertyStability_InvalidLevel: all checks, a property of a stable operation given a level that is not one',
    before: reportBody(undefined, 'draft'),
    after: reportBody(undefined, '1'),
    ids: ['api-invalid-stability-level'],
    checks: 'all',
  },
];
