// The contract-coverage report that ends npm test: what it counts as documented, what a request
// body exercises, and that it fails, naming operation and status, on a gap either way.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentedItems, type Exercised, oneOfAlternatives } from '../../scripts/contract-coverage/items.js';
import { createSpecAjv, nodeAt, specOperations } from '../../server/spec.js';
import { runEntry } from '../support/process.js';
import { findOperation, resolveRef, spec } from '../support/spec.js';

const documented = documentedItems(spec);
const patchBody = '#/components/schemas/ObservabilityDestinationUpdate';
const filterRule = nodeAt(spec, '#/components/schemas/FilterRule') as { oneOf: { $ref?: string }[] };

describe('what the spec documents', () => {
  it('is every response of every operation, by status and media type', () => {
    for (const { operation } of specOperations(spec)) {
      const responses = (documented.get(operation.operationId) ?? []).filter((key) => key.startsWith('response '));
      expect(responses.map((key) => key.split(' ')[1]).sort()).toEqual(Object.keys(operation.responses).sort());
      // A response with content, by its media type; one without (a 304), by its status alone.
      for (const key of responses) {
        const status = key.split(' ')[1] ?? '';
        const withContent = (resolveRef(operation.responses[status] as object) as { content?: object }).content;
        expect(key).toBe(withContent ? `response ${status} application/json` : `response ${status}`);
      }
    }
  });

  it('is every oneOf alternative a request body can take, shared components once', () => {
    const bodies = (documented.get('updateObservabilityDestination') ?? []).filter((key) => key.startsWith('body '));
    expect(bodies).toEqual([
      `body ${patchBody}/properties/api_key_hashes/oneOf/0`,
      `body ${patchBody}/properties/api_key_hashes/oneOf/1`,
      ...filterRule.oneOf.map((_alternative, i) => `body #/components/schemas/FilterRule/oneOf/${i}`),
    ]);
    expect(findOperation('getKey').operation.requestBody).toBeUndefined();
  });
});

describe('what a request body exercises', () => {
  const ajv = createSpecAjv(spec);
  const taken = (body: unknown) => oneOfAlternatives(spec, patchBody, ajv, body);

  it('is the alternatives it validates against, at every depth', () => {
    const gt = filterRule.oneOf.findIndex((alternative) =>
      JSON.stringify(alternative.$ref ? nodeAt(spec, alternative.$ref) : alternative).includes('"gt"'),
    );
    expect(gt).toBeGreaterThanOrEqual(0);
    expect(
      taken({
        api_key_hashes: null,
        filter_rules: { groups: [{ rules: [{ field: 'total_cost', operator: 'gt', value: 1 }] }] },
      }),
    ).toEqual([`${patchBody}/properties/api_key_hashes/oneOf/1`, `#/components/schemas/FilterRule/oneOf/${gt}`]);
  });

  it('is nothing for a body without any', () => {
    expect(taken({ sampling_rate: 0.5 })).toEqual([]);
  });
});

describe('the report', () => {
  const everything = (): Exercised[] =>
    [...documented].flatMap(([operationId, keys]) => keys.map((key) => ({ operationId, key, test: 'a test' })));

  async function report(records: Exercised[]) {
    const dir = join(mkdtempSync(join(tmpdir(), 'contract-coverage-')), 'records');
    mkdirSync(dir);
    writeFileSync(join(dir, 'one.json'), JSON.stringify(records));
    return runEntry('scripts/contract-coverage/index.ts', [], { CONTRACT_COVERAGE_DIR: dir });
  }

  it('passes when every documented item was exercised, and says so', async () => {
    const run = await report(everything());
    const total = [...documented.values()].flat().length;
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain(`${total} of ${total} exercised (100%).`);
  });

  it('fails naming each operation and status that no test produced, and each response the spec does not document', async () => {
    const records = everything().filter(
      (r) => !(r.operationId === 'getKey' && r.key === 'response 404 application/json'),
    );
    records.push({ operationId: 'listPresetVersions', key: 'response 418 application/json', test: 'a teapot test' });
    const run = await report(records);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'documented, but no test exercises it: getKey: response 404 application/json',
      'produced, but openapi.yaml does not document it: listPresetVersions: response 418 application/json (by a teapot test)',
    ]);
  });
});
