// The client against an implementation of the contract this project did not write: Prism's mock
// server, answering from openapi.yaml and its examples.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../../client/index.js';
import type { components, operations } from '../../generated/api.js';
import { specOperations } from '../../server/spec.js';
import { type Prism, startPrism } from '../support/prism.js';
import { findOperation, spec } from '../support/spec.js';

type PresetVersionList = components['schemas']['PresetVersionList'];

import { type ContractTarget, describeClientContract } from './contract-suite.js';

let prism: Prism | undefined;
let target: ContractTarget;

function exampleOf(operationId: string, parameter: string): string {
  const found = findOperation(operationId).parameters.find((p) => p.name === parameter) as
    | { example?: string }
    | undefined;
  if (!found?.example) throw new Error(`no example for ${operationId} ${parameter}`);
  return found.example;
}

function firstPageExample(): { versions: number[]; total: number } {
  const ok = findOperation('listPresetVersions').operation.responses['200'] as {
    content: { 'application/json': { examples: Record<string, { value: PresetVersionList }> } };
  };
  const [example] = Object.values(ok.content['application/json'].examples);
  if (!example) throw new Error('listPresetVersions has no example of a page');
  return { versions: example.value.data.map((version) => version?.version ?? 0), total: example.value.total_count };
}

beforeAll(async () => {
  prism = await startPrism(['mock', 'openapi.yaml']);
  target = {
    baseUrl: prism.baseUrl,
    apiKey: `sk-or-v1-${'0'.repeat(64)}`,
    keyHash: exampleOf('getKey', 'hash'),
    destinationId: exampleOf('updateObservabilityDestination', 'id'),
    presetSlug: exampleOf('listPresetVersions', 'slug'),
    // The mock answers with the example of the spec, whatever the page asked.
    firstPageOfTwo: firstPageExample(),
  };
}, 40_000);

afterAll(() => {
  prism?.stop();
});

describeClientContract('Prism mock of openapi.yaml', () => target);

type Call = (client: ReturnType<typeof createApiClient>) => Promise<unknown>;

// One call per operation: the type checker names an operation of the spec that has none here.
const calls: Record<keyof operations, Call> = {
  getKey: (client) => client.getKey(target.keyHash),
  updateObservabilityDestination: (client) => client.updateObservabilityDestination(target.destinationId, {}),
  listPresetVersions: (client) => client.listPresetVersions(target.presetSlug),
};

/** The call of an operation; an operation the table lacks fails its rows by name, not as a TypeError. */
function callOf(operationId: string): Call {
  const call = Object.hasOwn(calls, operationId) ? calls[operationId as keyof operations] : undefined;
  if (!call)
    throw new Error(`test/client/prism-mock.test.ts has no call for ${operationId}: add it to the table calls`);
  return call;
}

describe('client against the Prism mock: every documented error status', () => {
  // Every error status each operation of the spec documents.
  const cases = specOperations(spec).flatMap(({ operation }) =>
    Object.keys(operation.responses)
      .map(Number)
      .filter((status) => status >= 400)
      .map((status) => [operation.operationId, status] as const),
  );

  it.each(cases)('%s throws ApiError %i with the documented envelope', async (operationId, status) => {
    const client = createApiClient({
      baseUrl: target.baseUrl,
      apiKey: target.apiKey,
      headers: { Prefer: `code=${status}` },
    });
    const error = await callOf(operationId)(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status, code: status });
    expect((error as ApiError).serverMessage.length).toBeGreaterThan(0);
  });
});
