// The client against an implementation of the contract this project did not write: Prism's mock
// server, answering from openapi.yaml and its examples.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from '../../client/index.js';
import { findOperation } from '../support/spec.js';
import { projectRoot } from '../support/process.js';
import { describeClientContract, type ContractTarget } from './contract-suite.js';

let prism: ChildProcess | undefined;
let target: ContractTarget;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function exampleOf(operationId: string, parameter: string): string {
  const found = findOperation(operationId).operation.parameters?.find((p) => p.name === parameter) as { example?: string } | undefined;
  if (!found?.example) throw new Error(`no example for ${operationId} ${parameter}`);
  return found.example;
}

beforeAll(async () => {
  const port = await freePort();
  prism = spawn(process.execPath, ['node_modules/@stoplight/prism-cli/dist/index.js', 'mock', 'openapi.yaml', '--host', '127.0.0.1', '--port', String(port)], {
    cwd: projectRoot,
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`Prism did not start: ${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    prism?.stdout?.on('data', onData);
    prism?.stderr?.on('data', onData);
  });
  target = {
    baseUrl: `http://127.0.0.1:${port}`,
    apiKey: `sk-or-v1-${'0'.repeat(64)}`,
    keyHash: exampleOf('getKey', 'hash'),
    destinationId: exampleOf('updateObservabilityDestination', 'id'),
    presetSlug: exampleOf('listPresetVersions', 'slug'),
  };
}, 40_000);

afterAll(() => {
  prism?.kill('SIGTERM');
});

describeClientContract('Prism mock of openapi.yaml', () => target);

describe('client against the Prism mock: every documented error status', () => {
  const statuses: [string, number[]][] = [
    ['getKey', [401, 403, 404, 429, 500, 503]],
    ['updateObservabilityDestination', [400, 401, 403, 404, 412, 413, 415, 429, 500, 503]],
    ['listPresetVersions', [400, 401, 404, 429, 500, 503]],
  ];
  const cases = statuses.flatMap(([operationId, codes]) => codes.map((status) => [operationId, status] as const));

  it.each(cases)('%s throws ApiError %i with the documented envelope', async (operationId, status) => {
    const client = createApiClient({ baseUrl: target.baseUrl, apiKey: target.apiKey, headers: { Prefer: `code=${status}` } });
    const calls: Record<string, () => Promise<unknown>> = {
      getKey: () => client.getKey(target.keyHash),
      updateObservabilityDestination: () => client.updateObservabilityDestination(target.destinationId, {}),
      listPresetVersions: () => client.listPresetVersions(target.presetSlug),
    };
    const error = await calls[operationId]?.().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status, code: status });
    expect((error as ApiError).message.length).toBeGreaterThan(0);
  });
});
