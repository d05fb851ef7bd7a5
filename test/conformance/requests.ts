// Requests generated from openapi.yaml: valid ones, and ones that break exactly one constraint,
// each with what the contract promises in answer.
import fc from 'fast-check';
import { arbitraryFor, configSchemaName, partialOf, semanticRules, wireJson } from '../support/arbitraries.js';
import { findOperation, spec } from '../support/spec.js';

export interface Fixture {
  keyHashes: string[];
  destinations: { id: string; type: string }[];
  presetSlugs: string[];
}

export interface GeneratedRequest {
  method: 'GET' | 'PATCH';
  path: string;
  /** A JSON body, sent as is (already serialised, so that odd values survive). */
  body?: string;
  /** Statuses the contract allows for this request. */
  expected: number[];
  /** For a broken body or query: the field the error envelope must name. */
  errorPath?: string;
  /** The component schema a 2xx body must match. */
  successSchema: 'ApiKeyResponse' | 'ObservabilityDestinationResponse' | 'PresetVersionList';
}

const parameterSchema = (operationId: string, name: string) => {
  const parameter = findOperation(operationId).parameters.find((p) => p.name === name);
  if (!parameter) throw new Error(`${operationId} has no parameter ${name}`);
  return parameter.schema;
};

/** A valid update body for a destination of the given type, from the update schema and the type's config schema. */
export function validUpdateBody(type: string): fc.Arbitrary<Record<string, unknown>> {
  return arbitraryFor(
    { $ref: '#/components/schemas/ObservabilityDestinationUpdate' },
    {
      secret: semanticRules.secret,
      overrides: {
        DestinationConfigUpdate: arbitraryFor(partialOf(configSchemaName(type)), { secret: semanticRules.secret }),
      },
    },
  ) as fc.Arbitrary<Record<string, unknown>>;
}

const randomHash = fc.stringMatching(/^[0-9a-f]{64}$/);
const querySchemaArb = (name: string) => arbitraryFor(parameterSchema('listPresetVersions', name));

function query(offset: unknown, limit: unknown): string {
  const parts: string[] = [];
  if (offset !== undefined) parts.push(`offset=${offset === null ? '' : String(offset)}`);
  if (limit !== undefined) parts.push(`limit=${String(limit)}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

export function validRequest(fixture: Fixture): fc.Arbitrary<GeneratedRequest> {
  const getKey = fc.oneof(fc.constantFrom(...fixture.keyHashes), randomHash).map(
    (hash): GeneratedRequest => ({
      method: 'GET',
      path: `/api/v1/keys/${hash}`,
      expected: fixture.keyHashes.includes(hash) ? [200] : [404],
      successSchema: 'ApiKeyResponse',
    }),
  );
  const patch = fc
    .oneof(
      fc.constantFrom(...fixture.destinations),
      fc.uuid().map((id) => ({ id, type: 'langfuse' })),
    )
    .chain((destination) => validUpdateBody(destination.type).map((body) => ({ destination, body })))
    .map(
      ({ destination, body }): GeneratedRequest => ({
        method: 'PATCH',
        path: `/api/v1/observability/destinations/${destination.id}`,
        body: wireJson(body),
        expected: fixture.destinations.some((d) => d.id === destination.id) ? [200] : [404],
        successSchema: 'ObservabilityDestinationResponse',
      }),
    );
  const list = fc
    .record({
      slug: fc.oneof(fc.constantFrom(...fixture.presetSlugs), fc.stringMatching(/^[a-z0-9-]{1,30}$/)),
      offset: fc.option(querySchemaArb('offset'), { nil: undefined }),
      limit: fc.option(querySchemaArb('limit'), { nil: undefined }),
    })
    .map(
      ({ slug, offset, limit }): GeneratedRequest => ({
        method: 'GET',
        path: `/api/v1/presets/${encodeURIComponent(slug)}/versions${query(offset, limit)}`,
        expected: fixture.presetSlugs.includes(slug) ? [200] : [404],
        successSchema: 'PresetVersionList',
      }),
    );
  return fc.oneof(getKey, patch, list);
}

/** Values of the wrong JSON type for a schema type. */
const wrongTypeFor: Record<string, unknown[]> = {
  boolean: ['true', 1, [], {}],
  number: ['0.5', true, [0.5], {}],
  string: [42, true, ['x'], { x: 1 }],
  array: ['h', 1, { 0: 'h' }],
  object: ['x', 1, ['groups']],
};

function deeplyNested(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

/** A valid body with exactly one constraint broken, and the field the 400 must name. */
export function brokenBody(type: string): fc.Arbitrary<{ body: unknown; errorPath: string }> {
  const schema = partialOf('ObservabilityDestinationUpdate');
  const properties = schema.properties as Record<string, { type?: string | string[] }>;
  const scalarTypes: Record<string, string> = {
    name: 'string',
    enabled: 'boolean',
    privacy_mode: 'boolean',
    sampling_rate: 'number',
    api_key_hashes: 'array',
    filter_rules: 'object',
    config: 'object',
  };
  const nonNullable = ['name', 'enabled', 'privacy_mode', 'sampling_rate', 'config'];
  const nameMax = (properties.name as { maxLength: number }).maxLength;
  const rateMin = (properties.sampling_rate as { minimum: number }).minimum;
  const rateMax = (properties.sampling_rate as { maximum: number }).maximum;

  const base = validUpdateBody(type);
  const mutations: fc.Arbitrary<{ patch: Record<string, unknown>; errorPath: string; drop?: string }>[] = [
    fc
      .constantFrom(rateMin / 2, rateMin - Number.EPSILON * 100, 0, -1, rateMax + 0.0001, 2, 1e308)
      .map((value) => ({ patch: { sampling_rate: value }, errorPath: '/body/sampling_rate' })),
    fc
      .constantFrom(...Object.keys(scalarTypes))
      .chain((field) =>
        fc
          .constantFrom(...(wrongTypeFor[scalarTypes[field] ?? 'string'] ?? []))
          .map((value) => ({ patch: { [field]: value }, errorPath: `/body/${field}` })),
      ),
    fc
      .stringMatching(/^[a-z][a-z_]{0,19}$/)
      .filter((key) => !(key in properties))
      .map((key) => ({ patch: { [key]: 'x' }, errorPath: `/body/${key}` })),
    fc.constant({ patch: { api_key_hashes: [] }, errorPath: '/body/api_key_hashes' }),
    fc.constantFrom(...nonNullable).map((field) => ({ patch: { [field]: null }, errorPath: `/body/${field}` })),
    fc
      .integer({ min: nameMax + 1, max: nameMax + 5000 })
      .map((length) => ({ patch: { name: 'é'.repeat(length) }, errorPath: '/body/name' })),
    fc
      .integer({ min: 50, max: 2000 })
      .map((depth) => ({ patch: { name: deeplyNested(depth) }, errorPath: '/body/name' })),
    fc.constantFrom('like', 'EQUALS', '').map((operator) => ({
      patch: { filter_rules: { groups: [{ rules: [{ field: 'model', operator, value: 'x' }] }] } },
      errorPath: '/body/filter_rules/groups/0/rules/0/operator',
    })),
    fc.constantFrom('colour', 'Model', '').map((field) => ({
      patch: { filter_rules: { groups: [{ rules: [{ field, operator: 'equals', value: 'x' }] }] } },
      errorPath: '/body/filter_rules/groups/0/rules/0/field',
    })),
    fc
      .stringMatching(/^[a-z][A-Za-z]{0,15}$/)
      .filter((key) => !updateConfigKeys().includes(key))
      .map((key) => ({ patch: { config: { [key]: 'value' } }, errorPath: `/body/config/${key}` })),
    fc
      .constantFrom(...configKeysOf(type).filter((k) => k !== 'headers'))
      .map((key) => ({ patch: { config: { [key]: 'v'.repeat(2049) } }, errorPath: `/body/config/${key}` })),
  ];
  return fc.tuple(base, fc.oneof(...mutations)).map(([valid, mutation]) => {
    const body: Record<string, unknown> = { ...valid };
    // The broken field replaces its valid counterpart; nothing else in the body is wrong.
    for (const key of Object.keys(mutation.patch)) delete body[key];
    return { body: { ...body, ...mutation.patch }, errorPath: mutation.errorPath };
  });
}

function updateConfigKeys(): string[] {
  return Object.keys(
    (spec.components.schemas.DestinationConfigUpdate as { properties: Record<string, unknown> }).properties,
  );
}

function configKeysOf(type: string): string[] {
  return Object.keys(
    (spec.components.schemas[configSchemaName(type)] as { properties: Record<string, unknown> }).properties,
  );
}

const escapePointer = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * A body with one of its strings (a value or an object key, at any depth) replaced by `bad`, and
 * where that string is; `choice` picks which. A body without strings gets a name.
 */
export function withUnstorableText(body: unknown, choice: number, bad: string): { body: unknown; errorPath: string } {
  const copy = structuredClone(body);
  const places: { path: string; put: () => void }[] = [];
  const visit = (value: unknown, path: string) => {
    if (Array.isArray(value)) {
      value.forEach((member, index) => {
        if (typeof member === 'string') places.push({ path: `${path}/${index}`, put: () => (value[index] = bad) });
        else visit(member, `${path}/${index}`);
      });
    } else if (typeof value === 'object' && value !== null) {
      const object = value as Record<string, unknown>;
      for (const [key, member] of Object.entries(object)) {
        const at = `${path}/${escapePointer(key)}`;
        places.push({
          path: `${path}/${escapePointer(bad)}`,
          put: () => {
            delete object[key];
            object[bad] = member;
          },
        });
        if (typeof member === 'string') places.push({ path: at, put: () => (object[key] = bad) });
        else visit(member, at);
      }
    }
  };
  visit(copy, '/body');
  const place = places[choice % Math.max(places.length, 1)];
  if (!place) return { body: { ...(copy as object), name: bad }, errorPath: '/body/name' };
  place.put();
  return { body: copy, errorPath: place.path };
}

/** A valid body with one string no database can store as sent, and the field the 400 must name. */
export function unstorableBody(type: string): fc.Arbitrary<{ body: unknown; errorPath: string }> {
  return fc
    .tuple(validUpdateBody(type), fc.nat(), semanticRules.unstorable)
    .map(([body, choice, bad]) => withUnstorableText(body, choice, bad));
}

export function brokenRequest(fixture: Fixture): fc.Arbitrary<GeneratedRequest> {
  const destination = fc.constantFrom(...fixture.destinations);
  const slug = fc.constantFrom(...fixture.presetSlugs);
  const limitSchema = parameterSchema('listPresetVersions', 'limit') as { minimum: number; maximum: number };
  const badBody = destination.chain((d) =>
    brokenBody(d.type).map(
      ({ body, errorPath }): GeneratedRequest => ({
        method: 'PATCH',
        path: `/api/v1/observability/destinations/${d.id}`,
        body: JSON.stringify(body),
        expected: [400],
        errorPath,
        successSchema: 'ObservabilityDestinationResponse',
      }),
    ),
  );
  const badId = fc
    .oneof(
      fc.stringMatching(/^[0-9a-z-]{1,40}$/),
      fc.constantFrom(
        '7019b9f2-c5e6-4f46-873e-55a17bb095aZ',
        '7019b9f2c5e64f46873e55a17bb095a3x',
        'é019b9f2-c5e6-4f46-873e-55a17bb095a3',
      ),
    )
    .filter((id) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id))
    .map(
      (id): GeneratedRequest => ({
        method: 'PATCH',
        path: `/api/v1/observability/destinations/${encodeURIComponent(id)}`,
        body: '{}',
        expected: [400],
        errorPath: '/path/id',
        successSchema: 'ObservabilityDestinationResponse',
      }),
    );
  const badQuery = fc
    .tuple(
      slug,
      fc.oneof(
        fc
          .constantFrom(
            limitSchema.minimum - 1,
            limitSchema.maximum + 1,
            -5,
            1.5,
            'abc',
            '99999999999999999999',
            '1e2',
            ' 5',
          )
          .map((v) => ({ q: `limit=${encodeURIComponent(String(v))}`, path: '/query/limit' })),
        fc
          .constantFrom(-1, 'x', 2.5, '-0.5')
          .map((v) => ({ q: `offset=${encodeURIComponent(String(v))}`, path: '/query/offset' })),
        fc
          .tuple(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 100 }))
          .map(([a, b]) => ({ q: `limit=${a}&limit=${b}`, path: '/query/limit' })),
        fc
          .stringMatching(/^[a-z]{1,12}$/)
          .filter((name) => name !== 'limit' && name !== 'offset')
          .map((name) => ({ q: `${name}=1`, path: `/query/${name}` })),
      ),
    )
    .map(
      ([s, { q, path }]): GeneratedRequest => ({
        method: 'GET',
        path: `/api/v1/presets/${s}/versions?${q}`,
        expected: [400],
        errorPath: path,
        successSchema: 'PresetVersionList',
      }),
    );
  const unstorable = destination.chain((d) =>
    unstorableBody(d.type).map(
      ({ body, errorPath }): GeneratedRequest => ({
        method: 'PATCH',
        path: `/api/v1/observability/destinations/${d.id}`,
        body: wireJson(body),
        expected: [400],
        errorPath,
        successSchema: 'ObservabilityDestinationResponse',
      }),
    ),
  );
  return fc.oneof(badBody, badId, badQuery, unstorable);
}
