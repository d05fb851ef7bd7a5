// Property-based conformance: requests generated from openapi.yaml, every response checked
// against it. Replay a failure with FC_SEED=<seed> (and FC_PATH=<path>) from its report.
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerProblems } from '../../scripts/conformance/check.js';
import { loadContract, operationById } from '../../scripts/conformance/contract.js';
import { wireJson } from '../../scripts/conformance/generate/arbitraries.js';
import {
  type ConformanceRequest,
  negativeRequests,
  validRequest,
} from '../../scripts/conformance/generate/requests.js';
import { send as sendRequest } from '../../scripts/conformance/send.js';
import { readDestination } from '../support/destinations.js';
import { destinationTypes, provision } from '../support/server.js';
import { componentSchema } from '../support/spec.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';
import { applyToModel, looksMasked, type ModelState, mask, sampleConfig, secretKeysOf, shown } from './model.js';
import { type Fixture, type GeneratedRequest, knownObjects, unstorableBody, validUpdateBody } from './requests.js';
import { PROPERTY_TIMEOUT_MS, RUNS, runParameters } from './runs.js';

const server = useTestServer();
const workspace = useWorkspace(server);
const otherWorkspace = useWorkspace(server, 'Other');
let fixture: Fixture;
let sent = 0;

beforeAll(async () => {
  const now = server.clock.now();
  const types = [...destinationTypes.keys()];
  const destinations = [];
  for (const type of types) {
    const created = await provision.createDestination(
      server.store,
      { workspaceId: workspace.id, type, name: type, config: sampleConfig(type) },
      now,
    );
    destinations.push({ id: created.id, type });
  }
  for (const slug of ['support-agent', 'triage']) {
    for (let i = 0; i < 3; i++)
      await provision.addPresetVersion(
        server.store,
        { workspaceId: workspace.id, slug, config: { model: 'openai/gpt-4o' }, creatorId: 'u' },
        now,
      );
  }
  await provision.addPresetVersion(
    server.store,
    { workspaceId: otherWorkspace.id, slug: 'foreign', config: {}, creatorId: 'u' },
    now,
  );
  fixture = { keyHashes: [workspace.standardKeyHash], destinations, presetSlugs: ['support-agent', 'triage'] };
});

afterAll(() => {
  expect(server.serverErrors()).toEqual([]);
});

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  /** The body as sent, byte for byte. */
  text: string;
}

async function send(request: GeneratedRequest, key = workspace.managementKey): Promise<Answer> {
  sent += 1;
  const response = await fetch(`${server.baseUrl}${request.path}`, {
    method: request.method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(request.body !== undefined && { 'content-type': 'application/json' }),
    },
    body: request.body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text };
}

/** Runs a property, and checks that it sent at least `atLeast` requests of its own. */
async function assertSending<T>(
  property: fc.IAsyncPropertyWithHooks<T>,
  parameters: fc.Parameters<T>,
  atLeast: number,
): Promise<void> {
  const before = sent;
  await fc.assert(property, parameters);
  expect(sent - before, 'requests this property sent').toBeGreaterThanOrEqual(atLeast);
}

describe(`conformance over generated requests (${RUNS} per property)`, { timeout: PROPERTY_TIMEOUT_MS }, () => {
  const contract = loadContract();
  const known = () => knownObjects(fixture);

  async function expectKept(request: ConformanceRequest): Promise<void> {
    sent += 1;
    const answer = await sendRequest(`${server.baseUrl}${contract.basePath}`, request, workspace.managementKey);
    const problems = answerProblems(contract, operationById(contract, request.operationId), request.expect, answer);
    expect(problems, `${request.method} ${request.target} ${request.body ?? ''}`).toEqual([]);
  }

  it('answers a valid request with 2xx (or the documented 404) and a body that validates', async () => {
    const valid = fc.oneof(...contract.operations.map((operation) => validRequest(operation, known())));
    await assertSending(fc.asyncProperty(valid, expectKept), runParameters(RUNS), RUNS);
  });

  it('answers a request with one broken constraint with 400 naming the field, and one on a bound as valid', async () => {
    const cases = negativeRequests(contract, known());
    expect(cases.filter((r) => r.expect.kind === 'refused').length).toBeGreaterThan(cases.length / 2);
    await assertSending(fc.asyncProperty(fc.constantFrom(...cases), expectKept), runParameters(RUNS), RUNS);
  });

  it('never answers 5xx, whatever the method, path, query and body', async () => {
    const segment = fc.oneof(
      fc.constantFrom('keys', 'observability', 'destinations', 'presets', 'versions', 'api', 'v1', '..', '%00', '%E9'),
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
    );
    const anyRequest = fc.record({
      method: fc.constantFrom('GET', 'PATCH', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'),
      path: fc.oneof(
        fc.array(segment, { maxLength: 6 }).map((parts) => `/api/v1/${parts.join('/')}`),
        fc.constantFrom(...fixture.destinations.map((d) => `/api/v1/observability/destinations/${d.id}`)),
        fc.constantFrom('/api/v1/presets/support-agent/versions', `/api/v1/keys/${workspace.standardKeyHash}`),
      ),
      query: fc.option(
        fc.string({ maxLength: 30 }).map((q) => `?${q.replace(/#/g, '')}`),
        { nil: '' },
      ),
      body: fc.option(
        fc.oneof(
          fc.jsonValue().map((v) => JSON.stringify(v)),
          fc.string({ maxLength: 50 }),
        ),
        { nil: undefined },
      ),
      contentType: fc.constantFrom('application/json', 'text/plain', 'application/merge-patch+json', ''),
    });
    await assertSending(
      fc.asyncProperty(anyRequest, async (r) => {
        sent += 1;
        const hasBody = r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD';
        const response = await fetch(`${server.baseUrl}${r.path}${r.query}`, {
          method: r.method,
          headers: {
            authorization: `Bearer ${workspace.managementKey}`,
            ...(hasBody && r.contentType && { 'content-type': r.contentType }),
          },
          ...(hasBody && { body: r.body }),
        });
        const text = await response.text();
        expect(response.status, `${r.method} ${r.path}${r.query} ${r.body ?? ''}`).toBeLessThan(500);
        if (r.method !== 'HEAD' && response.status >= 400) {
          const validate = componentSchema('ErrorResponse');
          expect(validate(JSON.parse(text)), text).toBe(true);
        }
      }),
      {
        ...runParameters(RUNS),
        // Found by a run: `..` segments that leave a path beginning with `//`, which is no URL.
        examples: [
          [
            {
              method: 'GET',
              path: '/api/v1/../..//RW%20%23L%3D',
              query: '',
              body: undefined,
              contentType: '',
            },
          ],
        ],
      },
      RUNS,
    );
  });
});

describe('state properties', { timeout: PROPERTY_TIMEOUT_MS }, () => {
  it('repeating a PATCH changes nothing: the same ETag, updated_at and body, which is what is stored', async () => {
    const destination = fc.constantFrom(...fixture.destinations);
    // A valid body (-0 kept on the wire, numbers at the edges of a double, text beyond ASCII), or
    // one with a string no database can store, which is refused every time and changes nothing.
    const scenario = destination.chain((d) =>
      fc.oneof(
        { weight: 4, arbitrary: validUpdateBody(d.type).map((body) => ({ d, body: wireJson(body), refused: false })) },
        {
          weight: 1,
          arbitrary: unstorableBody(d.type).map(({ body }) => ({ d, body: wireJson(body), refused: true })),
        },
      ),
    );
    await assertSending(
      fc.asyncProperty(scenario, async ({ d, body, refused }) => {
        const request = (text: string): GeneratedRequest => ({
          method: 'PATCH',
          path: `/api/v1/observability/destinations/${d.id}`,
          body: text,
          expected: [200],
          successSchema: 'ObservabilityDestinationResponse',
        });
        const before = refused ? await send(request('{}')) : undefined;
        const first = await send(request(body));
        const second = await send(request(body));
        // What a read returns now: there is no GET of a destination, and an empty PATCH changes nothing.
        const stored = await send(request('{}'));
        const context = `${body} -> ${first.text}`;
        if (refused) {
          expect([first.status, second.status], context).toEqual([400, 400]);
          expect(stored.text, context).toBe(before?.text);
          expect(stored.headers.get('etag'), context).toBe(before?.headers.get('etag'));
          return;
        }
        expect([first.status, second.status], context).toEqual([200, 200]);
        expect(second.headers.get('etag'), context).toBe(first.headers.get('etag'));
        expect(second.text, context).toBe(first.text);
        expect(stored.headers.get('etag'), context).toBe(first.headers.get('etag'));
        expect(stored.text, context).toBe(first.text);
      }),
      runParameters(RUNS / 2),
      RUNS,
    );
  });
});

describe('state properties over sequences of PATCHes', { timeout: PROPERTY_TIMEOUT_MS }, () => {
  it('ends where the model of the same sequence ends, and never stores a masked value', async () => {
    const ECHO_MASKS = 'send every secret back as its mask';
    const scenario = fc.constantFrom('langfuse', 'webhook', 's3', 'newrelic', 'snowflake').chain((type) =>
      fc.record({
        type: fc.constant(type),
        steps: fc.array(
          fc.oneof({ weight: 5, arbitrary: validUpdateBody(type) }, { weight: 1, arbitrary: fc.constant(ECHO_MASKS) }),
          { minLength: 5, maxLength: 10 },
        ),
      }),
    );
    let requests = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ type, steps }) => {
        const secrets = secretKeysOf(type);
        const created = await provision.createDestination(
          server.store,
          { workspaceId: workspace.id, type, name: 'Model', config: sampleConfig(type) },
          server.clock.now(),
        );
        let model: ModelState = { ...created.state, config: { ...created.state.config } } as ModelState;
        for (const step of steps) {
          // The model sees the body as the wire carries it (JSON has no -0, for one).
          const body: unknown = JSON.parse(
            JSON.stringify(
              step === ECHO_MASKS
                ? {
                    config: Object.fromEntries(
                      Object.entries(model.config).map(([k, v]) => [
                        k,
                        typeof v === 'object'
                          ? Object.fromEntries(Object.entries(v).map(([n, hv]) => [n, mask(hv)]))
                          : secrets.has(k)
                            ? mask(v)
                            : v,
                      ]),
                    ),
                  }
                : step,
            ),
          );
          requests += 1;
          const answer = await send({
            method: 'PATCH',
            path: `/api/v1/observability/destinations/${created.id}`,
            body: JSON.stringify(body),
            expected: [200],
            successSchema: 'ObservabilityDestinationResponse',
          });
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          model = applyToModel(model, body as Record<string, unknown>, secrets);
          expect((answer.body as { data: unknown }).data).toMatchObject(shown(model, secrets));
        }
        const stored = await readDestination(server.store, workspace.id, created.id);
        expect(stored?.state).toEqual(model);
        for (const [key, value] of Object.entries(stored?.state.config ?? {})) {
          const values = typeof value === 'object' ? Object.values(value) : secrets.has(key) ? [value] : [];
          for (const secret of values) expect(looksMasked(secret), `${key} stored as ${secret}`).toBe(false);
        }
      }),
      // A scenario sends 5 to 10 PATCHes: RUNS / 5 scenarios send at least RUNS requests.
      runParameters(RUNS / 5),
    );
    expect(requests).toBeGreaterThanOrEqual(RUNS);
  });
});

describe('authorization variants', () => {
  function rawGet(headers: Record<string, string | Buffer>): Promise<number> {
    const url = new URL(`${server.baseUrl}/api/v1/presets/support-agent/versions`);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'GET',
          headers: headers as Record<string, string>,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  it.each([
    ['missing header', () => ({}), 401],
    ['Basic scheme', () => ({ authorization: 'Basic dXNlcjpwYXNz' }), 401],
    ['Token scheme', () => ({ authorization: `Token ${workspace.standardKey}` }), 401],
    ['key without a scheme', () => ({ authorization: workspace.standardKey }), 401],
    ['lower-case bearer', () => ({ authorization: `bearer ${workspace.standardKey}` }), 200],
    ['extra spaces after the scheme', () => ({ authorization: `Bearer    ${workspace.standardKey}` }), 200],
    ['trailing spaces', () => ({ authorization: `Bearer ${workspace.standardKey}   ` }), 200],
    ['a tab instead of a space', () => ({ authorization: `Bearer\t${workspace.standardKey}` }), 401],
    ['empty token', () => ({ authorization: 'Bearer ' }), 401],
    ['10 KB token', () => ({ authorization: `Bearer sk-or-v1-${'a'.repeat(10 * 1024)}` }), 401],
    [
      'non-ASCII token',
      () => ({ authorization: Buffer.from(`Bearer sk-or-v1-${'é'.repeat(32)}`, 'utf8').toString('latin1') }),
      401,
    ],
    [
      "a key of another workspace, on this workspace's preset",
      () => ({ authorization: `Bearer ${otherWorkspace.standardKey}` }),
      404,
    ],
  ])('%s', async (_name, headers, expected) => {
    expect(await rawGet(headers())).toBe(expected);
  });

  it('refuses a disabled and an expired key', async () => {
    const now = server.clock.now();
    const disabled = await provision.createKey(
      server.store,
      { workspaceId: workspace.id, name: 'Off', kind: 'standard', disabled: true },
      now,
    );
    const expired = await provision.createKey(
      server.store,
      { workspaceId: workspace.id, name: 'Old', kind: 'standard', expiresAt: '2020-01-01T00:00:00Z' },
      now,
    );
    expect(await rawGet({ authorization: `Bearer ${disabled.rawKey}` })).toBe(401);
    expect(await rawGet({ authorization: `Bearer ${expired.rawKey}` })).toBe(401);
  });
});
