// The server decides as the published contract does: a PATCH body is taken (200) exactly when the
// request body schema of /openapi.json accepts it, judged by Ajv, but for the rules the spec
// states in prose, each listed below. Replay a failure with FC_SEED=<seed> (and FC_PATH=<path>).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  arbitraryFor,
  configSchemaName,
  partialOf,
  semanticRules,
} from '../../scripts/conformance/generate/arbitraries.js';
import { nonLinearPatternReason } from '../../server/regex/linearity.js';
import { readDestination } from '../support/destinations.js';
import { destinationTypes, provision } from '../support/server.js';
import { spec } from '../support/spec.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';
import { applyToModel, type Config, looksMasked, type ModelState, mask, sampleConfig, secretKeysOf } from './model.js';
import { PROPERTY_TIMEOUT_MS, RUNS, runParameters } from './runs.js';

type Json = Record<string, unknown>;
type Body = Record<string, unknown>;

const server = useTestServer();
const workspace = useWorkspace(server);
let destinations: { id: string; type: string }[];
let published: Json;
let acceptsBody: ValidateFunction;
const configSchemaOf = new Map<string, ValidateFunction>();

// ajv-formats is published as CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

beforeAll(async () => {
  destinations = [];
  for (const type of destinationTypes.keys()) {
    const created = await provision.createDestination(
      server.store,
      { workspaceId: workspace.id, type, name: type, config: sampleConfig(type) },
      server.clock.now(),
    );
    destinations.push({ id: created.id, type });
  }
  // The judge reads the contract as any client would: from the server, as JSON.
  published = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as Json;
  const ajv = addFormats(new Ajv2020({ strict: false }));
  ajv.addSchema({ $id: 'openapi.json', components: published.components });
  const operation = Object.values(published.paths as Record<string, Record<string, Json>>)
    .flatMap((item) => Object.values(item))
    .find((o) => o.operationId === 'updateObservabilityDestination');
  if (!operation) throw new Error('/openapi.json has no operation updateObservabilityDestination');
  const bodySchema = ((operation.requestBody as Json).content as Record<string, Json>)['application/json']?.schema as {
    $ref: string;
  };
  acceptsBody = ajv.compile({ $ref: `openapi.json${bodySchema.$ref}` });
  for (const type of destinationTypes.keys())
    configSchemaOf.set(type, ajv.compile({ $ref: `openapi.json#/components/schemas/${configSchemaName(type)}` }));
});

afterAll(() => {
  expect(server.serverErrors()).toEqual([]);
});

async function currentState(id: string): Promise<ModelState> {
  const stored = await readDestination(server.store, workspace.id, id);
  if (!stored) throw new Error(`destination ${id} is gone`);
  return { ...stored.state, config: { ...stored.state.config } } as ModelState;
}

/**
 * The rules of the spec's prose that no schema states, each a reason for 400 although the schema
 * accepts the body. Returns the rule broken, if any.
 */
function proseRuleBroken(body: Body, type: string, state: ModelState): string | undefined {
  // 0. A regex rule's pattern is ECMAScript in Unicode mode, searched in linear time (RegexFilterRule).
  const groups = (body.filter_rules as { groups?: { rules?: { operator?: unknown; value?: unknown }[] }[] } | null)
    ?.groups;
  for (const rule of (groups ?? []).flatMap((group) => group.rules ?? [])) {
    if (rule.operator !== 'regex' || typeof rule.value !== 'string') continue;
    try {
      new RegExp(rule.value, 'u');
    } catch {
      return 'a pattern that is not ECMAScript in Unicode mode';
    }
    if (nonLinearPatternReason(rule.value)) return 'a pattern a backtracking engine searches in more than linear time';
  }
  const config = body.config as Config | undefined;
  if (config === undefined) return undefined;
  const typeSchema = spec.components.schemas[configSchemaName(type)] as { properties: Json };
  // 1. `config` takes only the keys of the destination's type (its `*Config` schema).
  if (Object.keys(config).some((key) => !Object.hasOwn(typeSchema.properties, key)))
    return 'a config key of another type';
  // 2. A masked-looking secret is refused, unless it is the stored value's own mask (which keeps it).
  const secrets = secretKeysOf(type);
  for (const [key, value] of Object.entries(config)) {
    const stored = state.config[key];
    if (typeof value === 'object') {
      const storedHeaders = typeof stored === 'object' ? stored : {};
      for (const [name, headerValue] of Object.entries(value)) {
        const before = Object.hasOwn(storedHeaders, name) ? storedHeaders[name] : undefined;
        if (looksMasked(headerValue) && !(before !== undefined && headerValue === mask(before)))
          return 'a masked header value';
      }
    } else if (secrets.has(key) && looksMasked(value) && !(typeof stored === 'string' && value === mask(stored))) {
      return 'a masked secret';
    }
  }
  // 3. The merged config must satisfy the type's `*Config` schema (its required keys and enums).
  const merged = applyToModel(state, { config }, secrets).config;
  if (!configSchemaOf.get(type)?.(merged)) return "a merged config that breaks its type's schema";
  return undefined;
}

async function decide(destination: { id: string; type: string }, body: Body): Promise<void> {
  const state = await currentState(destination.id);
  const schemaAccepts = acceptsBody(body) === true;
  const exception = schemaAccepts ? proseRuleBroken(body, destination.type, state) : undefined;
  const response = await fetch(`${server.baseUrl}/api/v1/observability/destinations/${destination.id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${workspace.managementKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { error?: { metadata?: unknown } };
  const verdict = `${JSON.stringify(body)} on ${destination.type}: schema ${schemaAccepts ? 'accepts' : 'refuses'}${exception ? `, but ${exception}` : ''}; server answered ${response.status} ${JSON.stringify(answer.error ?? '')}`;
  expect(response.status, verdict).toBe(schemaAccepts && !exception ? 200 : 400);
  counts[response.status === 200 ? 'accepted' : exception ? 'proseRule' : 'refusedBySchema'] += 1;
}

const counts = { accepted: 0, refusedBySchema: 0, proseRule: 0 };

const filterSchemas = (spec.components.schemas.FilterRule as { oneOf: { $ref: string }[] }).oneOf.map(
  ({ $ref }) =>
    spec.components.schemas[$ref.split('/').pop() ?? ''] as { properties: { operator: { enum: string[] } } },
);
const operators = filterSchemas.flatMap((schema) => schema.properties.operator.enum);
const fields = (spec.components.schemas.FilterField as { enum: string[] }).enum;

/** Values of every JSON kind a rule may carry, valid for some operator or for none. */
const valueKinds: Record<string, fc.Arbitrary<unknown>> = {
  number: fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
  string: fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.constantFrom('^openai/', 'gpt-4', '[', '(?<', '\\d+', 'a\\Z', '\\-'),
  ),
  boolean: fc.boolean(),
  null: fc.constant(null),
  object: fc.constant({ x: 1 }),
};

const anyPairing = fc.record(
  {
    field: fc.oneof(
      { weight: 9, arbitrary: fc.constantFrom(...fields) },
      { weight: 1, arbitrary: fc.constantFrom('colour', '') },
    ),
    operator: fc.oneof(
      { weight: 19, arbitrary: fc.constantFrom(...operators) },
      { weight: 1, arbitrary: fc.constantFrom('like', 'EQUALS') },
    ),
    value: fc.oneof(...Object.values(valueKinds)),
  },
  { requiredKeys: ['field', 'operator'] },
);
const rule = fc.oneof(
  { weight: 4, arbitrary: arbitraryFor({ $ref: '#/components/schemas/FilterRule' }) },
  { weight: 1, arbitrary: anyPairing },
);
const filterRules = fc.oneof(
  fc.record(
    {
      enabled: fc.boolean(),
      groups: fc.array(
        fc.record(
          { logic: fc.constantFrom('and', 'or'), rules: fc.array(rule, { minLength: 1, maxLength: 2 }) },
          { requiredKeys: ['rules'] },
        ),
        { maxLength: 2 },
      ),
    },
    { requiredKeys: ['groups'] },
  ),
  fc.constant(null),
);

/** A secret, mostly a real one, sometimes of a mask's shape. */
const secret = fc.oneof(
  { weight: 9, arbitrary: semanticRules.secret },
  { weight: 1, arbitrary: fc.constantFrom('****', '********', 'pk-l...EfGh', 'x...y') },
);
const wrongValues = fc.constantFrom('x', 7, 1.5, true, null, [], {}, -1);

function body(type: string): fc.Arbitrary<Body> {
  const ownConfig = arbitraryFor(partialOf(configSchemaName(type)), { secret });
  const anyTypeConfig = arbitraryFor({ $ref: '#/components/schemas/DestinationConfigUpdate' }, { secret });
  const wellFormed = arbitraryFor(
    { $ref: '#/components/schemas/ObservabilityDestinationUpdate' },
    {
      secret,
      overrides: {
        DestinationConfigUpdate: fc.oneof({ weight: 4, arbitrary: ownConfig }, { weight: 1, arbitrary: anyTypeConfig }),
        FilterRules: filterRules,
      },
    },
  ) as fc.Arbitrary<Body>;
  const properties = Object.keys(
    (spec.components.schemas.ObservabilityDestinationUpdate as { properties: Json }).properties,
  );
  // Now and then, one field of a well-formed body gets a value of any kind, or an unknown field appears.
  const broken = fc
    .tuple(wellFormed, fc.constantFrom(...properties, 'colour'), wrongValues)
    .map(([valid, field, value]) => ({ ...valid, [field]: value }));
  return fc.oneof({ weight: 6, arbitrary: wellFormed }, { weight: 1, arbitrary: broken });
}

describe('the server decides as the published schema does', { timeout: PROPERTY_TIMEOUT_MS }, () => {
  it('on every operator paired with a value of every kind, and with none', async () => {
    const [destination] = destinations;
    if (!destination) throw new Error('no destination');
    const samples = Object.entries(valueKinds).map(
      ([kind, arbitrary]) => [kind, fc.sample(arbitrary, { numRuns: 3, seed: 1 })] as const,
    );
    for (const operator of operators) {
      await decide(destination, { filter_rules: { groups: [{ rules: [{ field: 'model', operator }] }] } });
      for (const [, values] of samples) {
        for (const value of values)
          await decide(destination, { filter_rules: { groups: [{ rules: [{ field: 'model', operator, value }] }] } });
      }
    }
  });

  it(`on ${RUNS} random PATCH bodies, mostly well-formed`, async () => {
    const before = { ...counts };
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(...destinations)
          .chain((destination) => body(destination.type).map((b) => ({ destination, body: b }))),
        async ({ destination, body: b }) => decide(destination, b),
      ),
      runParameters(RUNS),
    );
    const accepted = counts.accepted - before.accepted;
    const refused = counts.refusedBySchema - before.refusedBySchema;
    const byProse = counts.proseRule - before.proseRule;
    // Mostly well-formed, and every kind of answer seen.
    console.log(
      `${RUNS} bodies: ${accepted} taken, ${refused} refused by the schema, ${byProse} refused by a rule of the prose`,
    );
    expect(accepted + refused + byProse).toBe(RUNS);
    expect(accepted).toBeGreaterThan(RUNS / 2);
    expect(refused).toBeGreaterThan(RUNS / 20);
    expect(byProse).toBeGreaterThan(0);
  });
});
