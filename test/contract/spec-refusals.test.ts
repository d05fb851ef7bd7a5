// Contracts the server cannot run on, and what it says of them: a file of more than one YAML
// document, which has no place to point at, and parameters given by a $ref that leads nowhere or
// through a chain longer than 17 steps (a cycle among them).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContractError, type JsonObject, loadSpec, type OpenApiDocument, specOperations } from '../../server/spec.js';

function refusalOf(attempt: () => unknown): string {
  try {
    attempt();
  } catch (err) {
    expect(err).toBeInstanceOf(ContractError);
    return (err as Error).message;
  }
  throw new Error('the contract was taken');
}

/** One operation, GET /items, whose only parameter is `#/components/parameters/p0`. */
function specWithParameters(parameters: Record<string, JsonObject | null>): OpenApiDocument {
  return {
    openapi: '3.1.1',
    info: { title: 'Refs', version: '1' },
    paths: { '/items': { get: { operationId: 'listItems', parameters: [{ $ref: '#/components/parameters/p0' }] } } },
    components: { schemas: {}, parameters },
  } as unknown as OpenApiDocument;
}

/** The operation's $ref to p0, p0's to p1, and so on to p{refs - 1}, the parameter itself: `refs` $refs to follow. */
function chainOf(refs: number): Record<string, JsonObject> {
  const parameters: Record<string, JsonObject> = {};
  for (let i = 0; i < refs - 1; i++) parameters[`p${i}`] = { $ref: `#/components/parameters/p${i + 1}` };
  parameters[`p${refs - 1}`] = { name: 'cursor', in: 'query', schema: { type: 'string' } };
  return parameters;
}

const AT = '#/paths/~1items/get/parameters/0';

describe('a contract the server cannot run on', () => {
  it('is refused when its file holds more than one YAML document, with no line to point at', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'spec-refusals-')), 'two-documents.yaml');
    writeFileSync(path, 'openapi: 3.1.1\n---\nopenapi: 3.1.1\n');
    expect(refusalOf(() => loadSpec(path))).toBe(
      `${path} is not valid YAML: expected a single document in the stream, but found more`,
    );
  });

  it('follows a chain of 17 parameter $refs to the parameter, and refuses a longer one', () => {
    const [operation] = specOperations(specWithParameters(chainOf(17)));
    expect(operation?.parameters).toEqual([
      { name: 'cursor', in: 'query', schema: { type: 'string' }, pointer: '#/components/parameters/p16' },
    ]);
    expect(refusalOf(() => specOperations(specWithParameters(chainOf(18))))).toBe(`${AT}: $ref chain too long`);
  });

  it('refuses parameter $refs that go round in a cycle', () => {
    const cycle = { p0: { $ref: '#/components/parameters/p1' }, p1: { $ref: '#/components/parameters/p0' } };
    expect(refusalOf(() => specOperations(specWithParameters(cycle)))).toBe(`${AT}: $ref chain too long`);
  });

  it('refuses a parameter $ref to nothing, or to null', () => {
    expect(refusalOf(() => specOperations(specWithParameters({})))).toBe(
      `${AT}: $ref #/components/parameters/p0 names nothing`,
    );
    expect(refusalOf(() => specOperations(specWithParameters({ p0: null })))).toBe(
      `${AT}: $ref #/components/parameters/p0 names nothing`,
    );
  });
});
