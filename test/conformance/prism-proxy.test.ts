// Part of the traffic goes through Prism's validating proxy (`prism proxy openapi.yaml <server>
// --errors`): an independent check of every request and response against the spec.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../scripts/conformance/contract.js';
import { validRequest } from '../../scripts/conformance/generate/requests.js';
import { type Prism, startPrism } from '../support/prism.js';
import { provision } from '../support/server.js';
import { useTestServer, useWorkspace } from '../support/use-test-server.js';
import { type Fixture, knownObjects } from './requests.js';

const REQUESTS = 300;
const PRISM_ERROR = 'stoplight.io/prism/errors';

/** Lines where Prism reports an error or a violation (its log marks them ✖). */
const reportedViolations = () =>
  prism
    .output()
    .split('\n')
    .filter((line) => /✖|violation/i.test(line));
const server = useTestServer();
const workspace = useWorkspace(server);
let prism: Prism;
let fixture: Fixture;

beforeAll(async () => {
  const now = server.clock.now();
  const destinations = [];
  for (const [type, config] of [
    ['langfuse', { publicKey: 'pk-lf-1234567890abcdef', secretKey: 'sk-lf-1234567890abcdef' }],
    ['webhook', { url: 'https://hooks.example.com/x' }],
  ] as const) {
    const created = await provision.createDestination(
      server.store,
      { workspaceId: workspace.id, type, name: type, config },
      now,
    );
    destinations.push({ id: created.id, type });
  }
  for (let i = 0; i < 3; i++)
    await provision.addPresetVersion(
      server.store,
      { workspaceId: workspace.id, slug: 'support-agent', config: { model: 'm' }, creatorId: 'u' },
      now,
    );
  fixture = { keyHashes: [workspace.standardKeyHash], destinations, presetSlugs: ['support-agent'] };
  prism = await startPrism(['proxy', 'openapi.yaml', `${server.baseUrl}/api/v1`, '--errors']);
}, 40_000);

afterAll(() => {
  prism?.stop();
  expect(server.serverErrors()).toEqual([]);
});

describe("traffic through Prism's validating proxy", () => {
  it(`${REQUESTS} generated requests, answered as documented, with zero violations reported`, async () => {
    const contract = loadContract();
    const valid = fc.oneof(...contract.operations.map((operation) => validRequest(operation, knownObjects(fixture))));
    const requests = fc.sample(valid, { numRuns: REQUESTS, seed: 42 });
    const statuses: number[] = [];
    const prismErrors: string[] = [];
    for (const request of requests) {
      const response = await fetch(`${prism.baseUrl}${request.target}`, {
        method: request.method,
        headers: { ...request.headers, authorization: `Bearer ${workspace.managementKey}` },
        body: request.body,
      });
      const text = await response.text();
      // With --errors, Prism answers a violation itself, in its own problem format.
      if (text.includes(PRISM_ERROR)) prismErrors.push(`${request.method} ${request.target}: ${text}`);
      statuses.push(response.status);
      const expected = request.expect.kind === 'accepted' ? request.expect.statuses : [];
      expect(expected, `${request.method} ${request.target}`).toContain(response.status);
    }
    // Documented errors too: a wrong key and a key of the wrong kind.
    for (const key of [`sk-or-v1-${'0'.repeat(64)}`, workspace.standardKey]) {
      const response = await fetch(`${prism.baseUrl}/keys/${workspace.standardKeyHash}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(-2)).toEqual([401, 403]);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(REQUESTS / 4);
    expect(prismErrors).toEqual([]);

    // And the proxy does report a violation when there is one. Prism logs in the order it answers:
    // once the line for this request is out, a violation of any request before it would be too.
    const violationsBefore = reportedViolations();
    const invalid = await fetch(`${prism.baseUrl}/presets/support-agent/versions?limit=0`, {
      headers: { authorization: `Bearer ${workspace.managementKey}` },
    });
    expect(await invalid.text()).toContain(PRISM_ERROR);
    await expect.poll(() => reportedViolations().length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(violationsBefore).toEqual([]);
    // Its line alone: none for the generated traffic.
    expect(reportedViolations()).toHaveLength(1);
    expect(reportedViolations()[0]).toMatch(/get \/presets\/support-agent\/versions .*Invalid request/);
  }, 60_000);
});
