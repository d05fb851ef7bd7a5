// The one table of boundary values of the contract. The contract tests run it through the spec's
// schemas; the server and fuzz tests send the same cases over HTTP.

export type BoundaryTarget =
  | { operationId: 'listPresetVersions'; in: 'query'; name: 'limit' | 'offset' }
  | { operationId: 'listPresetVersions'; in: 'path'; name: 'slug' }
  | { operationId: 'updateObservabilityDestination'; in: 'path'; name: 'id' }
  | { operationId: 'updateObservabilityDestination'; in: 'body' };

export interface BoundaryCase {
  /** Readable name, used as the test title. */
  name: string;
  target: BoundaryTarget;
  /** The parameter's value, or the whole request body for `in: 'body'`. */
  value: unknown;
  valid: boolean;
  /** For an invalid case: the field the error envelope must name in `metadata.errors[].path`. */
  errorPath?: string;
}

const limit = { operationId: 'listPresetVersions', in: 'query', name: 'limit' } as const;
const offset = { operationId: 'listPresetVersions', in: 'query', name: 'offset' } as const;
const slug = { operationId: 'listPresetVersions', in: 'path', name: 'slug' } as const;
const destinationId = { operationId: 'updateObservabilityDestination', in: 'path', name: 'id' } as const;
const body = { operationId: 'updateObservabilityDestination', in: 'body' } as const;

export const boundaryCases: readonly BoundaryCase[] = [
  { name: 'limit 0 is below the minimum', target: limit, value: 0, valid: false, errorPath: '/query/limit' },
  { name: 'limit 1 is the minimum', target: limit, value: 1, valid: true },
  { name: 'limit 100 is the maximum', target: limit, value: 100, valid: true },
  { name: 'limit 101 is above the maximum', target: limit, value: 101, valid: false, errorPath: '/query/limit' },
  { name: 'limit 2.5 is not an integer', target: limit, value: 2.5, valid: false, errorPath: '/query/limit' },
  { name: 'limit "ten" is not a number', target: limit, value: 'ten', valid: false, errorPath: '/query/limit' },
  { name: 'offset -1 is below the minimum', target: offset, value: -1, valid: false, errorPath: '/query/offset' },
  { name: 'offset 0 is the minimum', target: offset, value: 0, valid: true },
  { name: 'offset null means 0', target: offset, value: null, valid: true },
  { name: 'offset 1000000 is allowed', target: offset, value: 1_000_000, valid: true },
  { name: 'offset 1.5 is not an integer', target: offset, value: 1.5, valid: false, errorPath: '/query/offset' },
  { name: 'slug of one character is allowed', target: slug, value: 'a', valid: true },
  {
    name: 'destination id that is a uuid',
    target: destinationId,
    value: '7019b9f2-c5e6-4f46-873e-55a17bb095a3',
    valid: true,
  },
  {
    name: 'destination id that is not a uuid',
    target: destinationId,
    value: 'not-a-uuid',
    valid: false,
    errorPath: '/path/id',
  },
  {
    name: 'destination id of 36 characters but no uuid',
    target: destinationId,
    value: 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
    valid: false,
    errorPath: '/path/id',
  },
  { name: 'empty body changes nothing and is valid', target: body, value: {}, valid: true },
  {
    name: 'sampling_rate 0.00009 is below the minimum',
    target: body,
    value: { sampling_rate: 0.00009 },
    valid: false,
    errorPath: '/body/sampling_rate',
  },
  { name: 'sampling_rate 0.0001 is the minimum', target: body, value: { sampling_rate: 0.0001 }, valid: true },
  { name: 'sampling_rate 1 is the maximum', target: body, value: { sampling_rate: 1 }, valid: true },
  {
    name: 'sampling_rate 1.0001 is above the maximum',
    target: body,
    value: { sampling_rate: 1.0001 },
    valid: false,
    errorPath: '/body/sampling_rate',
  },
  {
    name: 'sampling_rate as a string',
    target: body,
    value: { sampling_rate: '0.5' },
    valid: false,
    errorPath: '/body/sampling_rate',
  },
  {
    name: 'api_key_hashes [] is below minItems',
    target: body,
    value: { api_key_hashes: [] },
    valid: false,
    errorPath: '/body/api_key_hashes',
  },
  { name: 'api_key_hashes ["h"] has one element', target: body, value: { api_key_hashes: ['h'] }, valid: true },
  { name: 'api_key_hashes null clears the allowlist', target: body, value: { api_key_hashes: null }, valid: true },
  {
    name: 'api_key_hashes with a number element',
    target: body,
    value: { api_key_hashes: [42] },
    valid: false,
    errorPath: '/body/api_key_hashes/0',
  },
  { name: 'unknown body property', target: body, value: { colour: 'blue' }, valid: false, errorPath: '/body/colour' },
  {
    name: 'unknown config key',
    target: body,
    value: { config: { notAKey: 'x' } },
    valid: false,
    errorPath: '/body/config/notAKey',
  },
  {
    name: 'config value of the wrong type',
    target: body,
    value: { config: { baseUrl: 42 } },
    valid: false,
    errorPath: '/body/config/baseUrl',
  },
  { name: 'enabled as a string', target: body, value: { enabled: 'yes' }, valid: false, errorPath: '/body/enabled' },
  {
    name: 'privacy_mode null',
    target: body,
    value: { privacy_mode: null },
    valid: false,
    errorPath: '/body/privacy_mode',
  },
  { name: 'name empty', target: body, value: { name: '' }, valid: false, errorPath: '/body/name' },
  {
    name: 'name null is not allowed in a request',
    target: body,
    value: { name: null },
    valid: false,
    errorPath: '/body/name',
  },
  { name: 'filter_rules null clears the rules', target: body, value: { filter_rules: null }, valid: true },
  { name: 'filter_rules with no groups', target: body, value: { filter_rules: { groups: [] } }, valid: true },
  {
    name: 'filter_rules with a full group',
    target: body,
    value: {
      filter_rules: {
        enabled: false,
        groups: [
          {
            logic: 'or',
            rules: [
              { field: 'total_tokens', operator: 'gte', value: 1000 },
              { field: 'user_id', operator: 'exists' },
            ],
          },
        ],
      },
    },
    valid: true,
  },
  {
    name: 'filter_rules with an unknown operator',
    target: body,
    value: { filter_rules: { groups: [{ rules: [{ field: 'model', operator: 'like', value: 'gpt' }] }] } },
    valid: false,
    errorPath: '/body/filter_rules/groups/0/rules/0/operator',
  },
  {
    name: 'filter_rules with an unknown field',
    target: body,
    value: { filter_rules: { groups: [{ rules: [{ field: 'colour', operator: 'equals', value: 'red' }] }] } },
    valid: false,
    errorPath: '/body/filter_rules/groups/0/rules/0/field',
  },
  {
    name: 'filter_rules group with no rules',
    target: body,
    value: { filter_rules: { groups: [{ logic: 'and', rules: [] }] } },
    valid: false,
    errorPath: '/body/filter_rules/groups/0/rules',
  },
];

/** How a case's value is written in a query string: null is the empty value (`offset=`). */
export function toQueryValue(value: unknown): string {
  return value === null ? '' : String(value);
}
