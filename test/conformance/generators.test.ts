// The generators of the conformance command and the property suite read everything from the spec:
// every parameter and every body field gets its broken values and its bounds, and one added to
// openapi.yaml is covered with no test edited.
import { describe, expect, it } from 'vitest';
import { answerProblems } from '../../scripts/conformance/check.js';
import { loadContract, operationById } from '../../scripts/conformance/contract.js';
import { bodyFields } from '../../scripts/conformance/generate/body-fields.js';
import { type Fixture, negativeRequests } from '../../scripts/conformance/generate/requests.js';
import { type JsonObject, loadSpec } from '../../server/spec.js';
import { componentSchema } from '../support/spec.js';

const refusedFields = (contract: ReturnType<typeof loadContract>) =>
  new Set(negativeRequests(contract, {}).flatMap((r) => (r.expect.kind === 'refused' ? [r.expect.field] : [])));

/**
 * A header whose schema is a bare string admits every value a client can send (a header's value is
 * always a string): the trace context's headers, which never refuse a request.
 */
const admitsEveryValue = (parameter: { in: string; schema?: unknown }) =>
  parameter.in === 'header' &&
  Object.keys(parameter.schema ?? {}).every((keyword) => ['type', 'description', 'examples'].includes(keyword)) &&
  (parameter.schema as { type?: unknown } | undefined)?.type === 'string';

describe('the negative generators', () => {
  it('break every parameter of every operation, and every field the request bodies reach', () => {
    const contract = loadContract();
    const refused = refusedFields(contract);
    for (const operation of contract.operations) {
      for (const parameter of operation.parameters) {
        const field = `/${parameter.in}/${parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name}`;
        if (admitsEveryValue(parameter)) expect(refused, `${operation.operationId} ${field}`).not.toContain(field);
        else expect(refused, `${operation.operationId} ${field}`).toContain(field);
      }
      if (!operation.bodySchema) continue;
      const resolve = (schema: JsonObject): JsonObject =>
        typeof schema.$ref === 'string'
          ? resolve(contract.spec.components.schemas[schema.$ref.replace('#/components/schemas/', '')] as JsonObject)
          : schema;
      for (const field of bodyFields(operation.bodySchema, resolve))
        expect(refused, `${operation.operationId} /body${field.pointer}`).toContain(`/body${field.pointer}`);
    }
  });

  it('cover a query parameter and a body field added to the spec, with no test edited', () => {
    const spec = loadSpec();
    const list = spec.paths['/presets/{slug}/versions']?.get;
    list?.parameters?.push({ name: 'since', in: 'query', schema: { type: 'integer', minimum: 3, maximum: 9 } });
    const update = spec.components.schemas.ObservabilityDestinationUpdate as { properties: Record<string, JsonObject> };
    update.properties.note = { type: 'string', maxLength: 5, pattern: '^[a-z]*$' };
    const cases = negativeRequests(loadContract(spec), {});
    const about = (field: string) => cases.filter((r) => r.expect.kind === 'refused' && r.expect.field === field);
    const since = about('/query/since').map((r) => r.target.split('since=')[1]);
    expect(since).toEqual(expect.arrayContaining(['2', '10', '1e999', `${'9'.repeat(309)}`, '%2B3', '3e0']));
    const bounds = cases
      .filter((r) => r.expect.kind === 'boundary' && r.target.includes('since='))
      .map((r) => r.target);
    expect(bounds.some((t) => t.endsWith('since=3')) && bounds.some((t) => t.endsWith('since=9'))).toBe(true);
    const note = about('/body/note').map((r) => r.label);
    expect(note).toEqual(
      expect.arrayContaining([expect.stringMatching(/maxLength \+ 1/), expect.stringMatching(/not matching/)]),
    );
  });

  it('let a masked secret sent to an object the workspace does not have be answered 404, and only then', () => {
    const contract = loadContract(loadSpec());
    const secrets = (fixture: Fixture) =>
      negativeRequests(contract, fixture).filter(
        (r) => r.expect.kind === 'refused' && r.label.includes('masked shape'),
      );
    const unknown = secrets({});
    expect(unknown.length).toBeGreaterThan(0);
    for (const request of unknown) expect(request.expect).toMatchObject({ kind: 'refused', orNotFound: true });
    const destination = { value: '00000006-5b82-708b-b1f3-39d16a2732ae' };
    const known = secrets({ updateObservabilityDestination: { id: [destination] } });
    expect(known.length).toBeGreaterThan(0);
    for (const request of known) expect(request.expect).not.toHaveProperty('orNotFound');
    const operation = operationById(contract, 'updateObservabilityDestination');
    const notFound = {
      status: 404,
      headers: new Headers({ 'content-type': 'application/json' }),
      text: JSON.stringify({ error: { code: 404, message: 'No such destination.', metadata: null } }),
    };
    const [first, second] = [unknown[0], known[0]];
    expect(first && answerProblems(contract, operation, first.expect, notFound)).toEqual([]);
    expect(second && answerProblems(contract, operation, second.expect, notFound)).toEqual([
      `expected 400 naming ${(second?.expect as { field: string } | undefined)?.field}, got 404`,
    ]);
  });

  it('says of a status an operation does not document what openapi.yaml lacks, and how the others document it', () => {
    const spec = loadSpec();
    const withoutBadRequest = structuredClone(spec);
    const getKey = withoutBadRequest.paths['/keys/{hash}']?.get;
    if (!getKey) throw new Error('openapi.yaml has no GET /keys/{hash}');
    delete (getKey.responses as Record<string, unknown>)['400'];
    const contract = loadContract(withoutBadRequest);
    const operation = operationById(contract, 'getKey');
    const badRequest = {
      status: 400,
      headers: new Headers({ 'content-type': 'application/json' }),
      text: JSON.stringify({ error: { code: 400, message: 'Invalid request.', metadata: { errors: [] } } }),
    };
    const documented = [...operation.responses.keys()].join(', ');
    const problems = answerProblems(contract, operation, { kind: 'accepted', statuses: [400] }, badRequest);
    expect(problems).toHaveLength(1);
    // Whichever operation documents a 400 is named as the example, with its own reference.
    const [, other, reference] =
      /^status 400 is not documented for getKey \(documented: ([^)]*)\): openapi\.yaml lacks its response '400' \((\w+) has '400': \{\$ref: '([^']+)'\}\)$/
        .exec(problems[0] ?? '')
        ?.slice(1) ?? [];
    expect(problems[0]).toContain(`(documented: ${documented})`);
    expect(other && operationById(contract, other).responses.has(400), problems[0]).toBe(true);
    expect(reference).toMatch(/^#\/components\/responses\/\w+BadRequest$/);
  });

  it("break every URL-valued config key with URIs the contract's http(s) pattern refuses", () => {
    const contract = loadContract(loadSpec());
    const update = contract.spec.components.schemas.DestinationConfigUpdate as {
      properties: Record<string, JsonObject>;
    };
    const urlKeys = Object.entries(update.properties)
      .filter(([, property]) => property.$ref === '#/components/schemas/HttpUrl')
      .map(([key]) => key);
    expect(urlKeys.length).toBeGreaterThan(0);
    const httpUrl = componentSchema('HttpUrl');
    const requests = negativeRequests(contract, {});
    for (const key of urlKeys) {
      const broken = requests.filter((r) => r.expect.kind === 'refused' && r.expect.field === `/body/config/${key}`);
      const sent = broken.map((r) => (JSON.parse(r.body ?? '{}') as { config: Record<string, unknown> }).config[key]);
      expect(sent, key).toEqual(
        expect.arrayContaining(['javascript:alert(1)', 'file:///etc/passwd', 'ftp://x', 'http://', 'not a uri']),
      );
      // Each value sent is one the contract refuses: a type, a length, the pattern or the format broken.
      for (const value of sent) expect(httpUrl(value), `${key}: ${JSON.stringify(value)}`).toBe(false);
    }
  });
});
