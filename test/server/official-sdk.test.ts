// The official OpenRouter TypeScript SDK, two releases of it installed unmodified (package.json
// pins them under aliases), drives the server on each database: every operation of openapi.yaml
// through the SDK's own method, each answer parsed and validated by the SDK's own schemas into its
// typed objects (never its `raw` fallback or a ResponseValidationError), and each documented error
// the SDK can cause thrown as the error class the SDK gives that status. The fields a release
// predates are named in RELEASES (test/support/official-sdk.ts); test/contract/official-sdk-models.test.ts
// holds that list to the SDK's own models.
import type * as errors1319 from 'openrouter-sdk-1-3-19/models/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { operations } from '../../generated/api.js';
import {
  type ConfigValues,
  type DestinationType,
  loadDestinationTypeRules,
} from '../../server/domain/destination-config-rules.js';
import { nodeAt, type SpecOperation, specOperations } from '../../server/spec.js';
import { RELEASES, type SdkErrorClass, type SdkRelease, sdkErrorClass } from '../support/official-sdk.js';
import { call, provision, spec } from '../support/server.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';

const server = useTestServer();
const workspace = useWorkspace(server);
const destinationTypes = loadDestinationTypeRules(spec);

afterAll(() => {
  expect(server.serverErrors()).toEqual([]);
});

/** What the tests made on the server before they ran. */
const seeded = {
  attributedKeyHash: '',
  plainKeyHash: '',
  destinationIds: new Map<DestinationType, string>(),
  presetSlug: 'sdk-preset',
  presetVersions: 5,
};

const SECRET_TAIL = '0123456789abcdef0123456789abcdef';

/** A config of the type with every key its schema in openapi.yaml has, so that the SDK parses each. */
function fullConfig(type: DestinationType): ConfigValues {
  const rules = destinationTypes.get(type);
  if (!rules) throw new Error(`no config schema for ${type}`);
  const schemaName = Object.entries(spec.components?.schemas ?? {}).find(
    ([, schema]) => (schema as { 'x-destination-type'?: string })['x-destination-type'] === type,
  )?.[0];
  const properties = nodeAt(spec, `#/components/schemas/${schemaName}/properties`) as Record<
    string,
    { enum?: string[]; $ref?: string }
  >;
  return Object.fromEntries(
    [...rules.keys].map((key) => {
      if (key === 'headers') return [key, { 'X-Team-Token': `tok_${SECRET_TAIL}` }];
      // A URL-valued key (HttpUrl) takes an http or https URL only.
      if (properties[key]?.$ref === '#/components/schemas/HttpUrl')
        return [key, `https://${type}.example.com/${key}-${SECRET_TAIL}`];
      return [key, properties[key]?.enum?.[0] ?? `${key}-${SECRET_TAIL}`];
    }),
  );
}

beforeAll(async () => {
  const now = server.clock.now();
  const attributed = await provision.createKey(
    server.store,
    { workspaceId: workspace.id, name: 'Partner key', kind: 'standard', limit: 50, externalUser: 'customer_4812' },
    now,
  );
  const plain = await provision.createKey(
    server.store,
    { workspaceId: workspace.id, name: 'Plain key', kind: 'standard', expiresAt: '2027-11-01T00:00:00.000Z' },
    now,
  );
  seeded.attributedKeyHash = attributed.hash;
  seeded.plainKeyHash = plain.hash;
  for (const type of destinationTypes.keys()) {
    const destination = await provision.createDestination(
      server.store,
      { workspaceId: workspace.id, type, name: `SDK ${type}`, config: fullConfig(type) },
      now,
    );
    seeded.destinationIds.set(type, destination.id);
  }
  for (let version = 1; version <= seeded.presetVersions; version++) {
    await provision.addPresetVersion(
      server.store,
      {
        workspaceId: workspace.id,
        slug: seeded.presetSlug,
        config: { model: 'openai/gpt-4o-mini', temperature: version / 10 },
        systemPrompt: version % 2 === 0 ? null : `Prompt ${version}`,
        creatorId: 'user_sdk',
      },
      now,
    );
  }
});

/** The requests an SDK client sent and the JSON bodies it was answered with, in order. */
interface Exchange {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

function sdkClient(release: SdkRelease, key: string) {
  const exchanges: Exchange[] = [];
  const httpClient = new release.module.HTTPClient();
  httpClient.addHook('response', async (response, request) => {
    const text = await response.clone().text();
    exchanges.push({
      method: request.method,
      path: new URL(request.url).pathname,
      status: response.status,
      body: text ? JSON.parse(text) : undefined,
    });
  });
  const client = new release.module.OpenRouter({
    apiKey: key,
    serverURL: `${server.baseUrl}/api/v1`,
    httpClient,
    // A 5xx is a failure of the test, not something to wait out with the SDK's default backoff.
    retryConfig: { strategy: 'none' },
  });
  return { client, exchanges };
}

const camel = (name: string) => name.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/**
 * The object the SDK should give for a JSON object of the server: its keys in camelCase, the fields
 * the release predates left out, a timestamp the SDK turns into a Date as that Date.
 */
function asSdkGivesIt(json: Record<string, unknown>, lacks: readonly string[], dates: readonly string[] = []) {
  return Object.fromEntries(
    Object.entries(json)
      .filter(([name]) => !lacks.includes(name))
      .map(([name, value]) => [
        camel(name),
        dates.includes(name) && typeof value === 'string' ? new Date(value) : value,
      ]),
  );
}

/** The error the promise rejects with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (err: unknown) => err,
  );
}

type OperationId = keyof operations;

/** One error of the operation caused through the SDK: the status, and the SDK's call that causes it. */
interface ErrorCase {
  status: number;
  /** The SDK's error class for it, or per release where they differ (1.2.6 types no 403 of an update). */
  thrownAs: SdkErrorClass | Record<string, SdkErrorClass>;
  cause: (release: SdkRelease) => Promise<unknown>;
}

/**
 * For each operation of openapi.yaml: its call through the SDK, checked; the documented 4xx
 * statuses an unmodified SDK can cause; and those it cannot, with the reason.
 */
interface OperationCheck {
  succeeds: (release: SdkRelease) => Promise<void>;
  errors: ErrorCase[];
  notCausable: Record<number, string>;
}

const STANDARD = 'standard key';
const RATE_LIMITED = {
  429: 'the rate limit is out of reach in these tests (test/hardening/rate-limit.test.ts causes it)',
};

function keyFor(kind: typeof STANDARD | 'management' | 'unknown'): string {
  if (kind === 'management') return workspace.managementKey;
  if (kind === STANDARD) return workspace.standardKey;
  return `sk-or-v1-${'0'.repeat(64)}`;
}

const checks: { [K in OperationId]: OperationCheck } = {
  getKey: {
    async succeeds(release) {
      const { client, exchanges } = sdkClient(release, keyFor('management'));
      for (const hash of [seeded.attributedKeyHash, seeded.plainKeyHash]) {
        const result = await client.apiKeys.get({ hash });
        const answered = exchanges.at(-1)?.body as { data: Record<string, unknown> };
        expect(result.data).toEqual(asSdkGivesIt(answered.data, release.lacks.ApiKey, ['expires_at']));
      }
      expect(exchanges.map(({ status }) => status)).toEqual([200, 200]);
    },
    errors: [
      {
        status: 401,
        thrownAs: 'UnauthorizedResponseError',
        cause: (release) => sdkClient(release, keyFor('unknown')).client.apiKeys.get({ hash: 'a' }),
      },
      {
        status: 403,
        thrownAs: 'OpenRouterDefaultError',
        cause: (release) => sdkClient(release, keyFor(STANDARD)).client.apiKeys.get({ hash: 'a' }),
      },
      {
        status: 404,
        thrownAs: 'NotFoundResponseError',
        cause: (release) => sdkClient(release, keyFor('management')).client.apiKeys.get({ hash: 'f'.repeat(64) }),
      },
    ],
    notCausable: {
      400: 'the SDK sends no query parameter with getKey, which has no other 400',
      ...RATE_LIMITED,
    },
  },
  updateObservabilityDestination: {
    async succeeds(release) {
      const { client, exchanges } = sdkClient(release, keyFor('management'));
      for (const [type, id] of seeded.destinationIds) {
        const result = await client.observability.update({
          id,
          updateObservabilityDestinationRequest: release.updateBody(type),
        });
        const answered = exchanges.at(-1)?.body as { data: Record<string, unknown> };
        expect(exchanges.at(-1)?.status, type).toBe(200);
        // The SDK's forward-compatible union gives `raw` and `isUnknown` for an answer no variant parses.
        expect(result.data, type).not.toHaveProperty('raw');
        const expected = asSdkGivesIt(answered.data, release.lacks.ObservabilityDestination);
        // The SDK fills in its own defaults of config keys; every key the server answered is there as answered.
        expect(Object.keys(result.data).sort(), type).toEqual(Object.keys(expected).sort());
        expect(result.data, type).toMatchObject(expected);
      }
    },
    errors: [
      {
        status: 400,
        thrownAs: 'BadRequestResponseError',
        cause: (release) =>
          sdkClient(release, keyFor('management')).client.observability.update({
            id: seeded.destinationIds.get('langfuse') ?? '',
            updateObservabilityDestinationRequest: { samplingRate: 2 },
          }),
      },
      {
        status: 401,
        thrownAs: 'UnauthorizedResponseError',
        cause: (release) =>
          sdkClient(release, keyFor('unknown')).client.observability.update({
            id: seeded.destinationIds.get('langfuse') ?? '',
            updateObservabilityDestinationRequest: {},
          }),
      },
      {
        status: 403,
        thrownAs: { '1.2.6': 'OpenRouterDefaultError', '1.3.19': 'ForbiddenResponseError' },
        cause: (release) =>
          sdkClient(release, keyFor(STANDARD)).client.observability.update({
            id: seeded.destinationIds.get('langfuse') ?? '',
            updateObservabilityDestinationRequest: {},
          }),
      },
      {
        status: 404,
        thrownAs: 'NotFoundResponseError',
        cause: (release) =>
          sdkClient(release, keyFor('management')).client.observability.update({
            id: '00000000-0000-4000-8000-000000000000',
            updateObservabilityDestinationRequest: {},
          }),
      },
      {
        // The SDK's update takes no If-Match of its own; its per-request headers carry one.
        status: 412,
        thrownAs: 'OpenRouterDefaultError',
        cause: (release) =>
          sdkClient(release, keyFor('management')).client.observability.update(
            { id: seeded.destinationIds.get('langfuse') ?? '', updateObservabilityDestinationRequest: {} },
            { headers: { 'If-Match': '"stale"' } },
          ),
      },
    ],
    notCausable: {
      413: 'every field the SDK sends is far below 100 KB but filter rules and config, which would be a payload made by hand',
      415: 'the SDK always sends application/json',
      ...RATE_LIMITED,
    },
  },
  listPresetVersions: {
    async succeeds(release) {
      const { client, exchanges } = sdkClient(release, keyFor(STANDARD));
      const versions: unknown[] = [];
      // The SDK's pages: it asks for the next one at offset + the versions it got, until a short page.
      for await (const page of await client.presets.listVersions({ slug: seeded.presetSlug, limit: 2 })) {
        const answered = exchanges.at(-1)?.body as { data: Record<string, unknown>[]; total_count: number };
        expect(page.result).toEqual({
          data: answered.data.map((version) => asSdkGivesIt(version, release.lacks.PresetVersion)),
          totalCount: seeded.presetVersions,
        });
        versions.push(...page.result.data);
      }
      expect(versions.map((version) => (version as { version: number }).version)).toEqual([1, 2, 3, 4, 5]);
      expect(exchanges.map(({ path, status }) => [path, status])).toEqual(
        [1, 2, 3].map(() => [`/api/v1/presets/${seeded.presetSlug}/versions`, 200]),
      );
    },
    errors: [
      {
        status: 400,
        thrownAs: 'BadRequestResponseError',
        cause: (release) =>
          sdkClient(release, keyFor(STANDARD)).client.presets.listVersions({ slug: seeded.presetSlug, limit: 101 }),
      },
      {
        status: 401,
        thrownAs: 'UnauthorizedResponseError',
        cause: (release) =>
          sdkClient(release, keyFor('unknown')).client.presets.listVersions({ slug: seeded.presetSlug }),
      },
      {
        status: 404,
        thrownAs: 'NotFoundResponseError',
        cause: (release) =>
          sdkClient(release, keyFor(STANDARD)).client.presets.listVersions({ slug: 'no-such-preset' }),
      },
    ],
    notCausable: RATE_LIMITED,
  },
};

const operationsOfSpec = specOperations(spec).map(
  (entry) => [entry.operation.operationId as OperationId, entry] as const,
);

/** The statuses of 4xx the operation documents. */
function documentedClientErrors(entry: SpecOperation): number[] {
  return Object.keys(entry.operation.responses ?? {})
    .map(Number)
    .filter((status) => status >= 400 && status < 500)
    .sort();
}

it('has a check for every operation of openapi.yaml, and none for an operation it lacks', () => {
  expect(Object.keys(checks).sort()).toEqual(operationsOfSpec.map(([id]) => id).sort());
});

describe.each(RELEASES.map((release) => [release.version, release] as const))(
  '@openrouter/sdk %s',
  (_version, release) => {
    it('is the release its alias names, installed unmodified', () => {
      expect(release.installedVersion).toBe(release.version);
    });

    describe.each(operationsOfSpec)('%s', (operationId, entry) => {
      const check = checks[operationId];
      if (!check)
        throw new Error(`${operationId} (openapi.yaml) has no line in checks, test/server/official-sdk.test.ts`);

      it('answers the SDK, which parses and validates every answer into its typed objects', async () => {
        await check.succeeds(release);
      });

      it('causes every documented 4xx the SDK can cause, or says why it cannot', () => {
        const covered = [...check.errors.map(({ status }) => status), ...Object.keys(check.notCausable).map(Number)];
        expect(covered.sort()).toEqual(documentedClientErrors(entry));
      });

      it.each(check.errors.map((errorCase) => [errorCase.status, errorCase] as const))(
        'throws %i as the error class the SDK gives it, with the server message',
        async (status, errorCase) => {
          const err = await rejection(errorCase.cause(release));
          const { thrownAs } = errorCase;
          const name = typeof thrownAs === 'string' ? thrownAs : thrownAs[release.version];
          if (!name) throw new Error(`the case of ${status} says no error class for ${release.version}`);
          const expectedClass = sdkErrorClass(release, name);
          expect(err).toBeInstanceOf(expectedClass);
          expect(err).toBeInstanceOf(release.errors.OpenRouterError);
          expect((err as errors1319.OpenRouterError).statusCode).toBe(status);
          const body = JSON.parse((err as errors1319.OpenRouterError).body) as { error: { message: string } };
          if (expectedClass !== release.errors.OpenRouterDefaultError)
            expect((err as { error: { code: number; message: string } }).error).toMatchObject({
              code: status,
              message: body.error.message,
            });
        },
      );
    });
  },
);

describe('what each release sends of the new fields', () => {
  it('1.3.19 sets the broadcast flags and regions, eu arriving as europe; 1.2.6 leaves them as they are', async () => {
    const [old, current] = RELEASES;
    if (!old || !current) throw new Error('two releases are tested');
    const id = seeded.destinationIds.get('webhook') ?? '';
    const { client } = sdkClient(current, keyFor('management'));
    const set = await client.observability.update({
      id,
      updateObservabilityDestinationRequest: {
        broadcastGenerationIdentity: true,
        regions: ['eu', 'us'],
      },
    });
    expect(set.data).toMatchObject({ broadcastGenerationIdentity: true, regions: ['europe', 'us'] });
    const kept = await sdkClient(old, keyFor('management')).client.observability.update({
      id,
      updateObservabilityDestinationRequest: { name: 'Renamed by 1.2.6' },
    });
    expect(kept.data).toMatchObject({ name: 'Renamed by 1.2.6' });
    const after = await call(server, 'PATCH', `/api/v1/observability/destinations/${id}`, {
      key: workspace.managementKey,
      body: {},
    });
    expect(after.body.data).toMatchObject({ broadcast_generation_identity: true, regions: ['europe', 'us'] });
  });

  it('1.3.19 gets a 400 naming the field for a region the server does not know', async () => {
    const [, current] = RELEASES;
    if (!current) throw new Error('two releases are tested');
    const err = await rejection(
      sdkClient(current, keyFor('management')).client.observability.update({
        id: seeded.destinationIds.get('webhook') ?? '',
        // The SDK's enums are open: it sends a value it does not know.
        updateObservabilityDestinationRequest: { regions: ['mars' as 'us'] },
      }),
    );
    expect(err).toBeInstanceOf(current.errors.BadRequestResponseError);
    expect((err as errors1319.BadRequestResponseError).error.metadata).toEqual({
      errors: [{ path: '/body/regions/0', message: 'must be one of: global, europe, us, eu' }],
    });
  });
});
