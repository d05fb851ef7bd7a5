// Pairs after oasdiff's fixtures of paths and operations: path variables renamed (data/param-rename,
// data/checker/request_parameter_default_value_changed_*_renamed, data/param-deprecation).
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
];
