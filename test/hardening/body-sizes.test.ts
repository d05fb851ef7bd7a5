// The sizes a request body's schema allows, checked before the rest of it (domain/size-limits.ts):
// an array or object past its size is named once and cut down, so that what lies past it costs
// nothing; the rest of the body is still checked, and a 400 lists at most the envelope's bound of
// failing fields, saying when there are more.
import { describe, expect, it } from 'vitest';
import { createSpecAjv, nodeAt, requestBodySchemaPointer } from '../../server/spec.js';
import { requestBodySizesChecks } from '../../server/validation/size-limits.js';
import { call } from '../support/server.js';
import { findOperation, spec } from '../support/spec.js';
import { useDestination, useTestServer, useWorkspace } from '../support/use-test-server.js';

const bound = (pointer: string) => nodeAt(spec, pointer) as number;
const maxGroups = bound('#/components/schemas/FilterRules/properties/groups/maxItems');
const maxRules = bound('#/components/schemas/FilterRuleGroup/properties/rules/maxItems');
const maxHashes = bound('#/components/schemas/ApiKeyHashList/maxItems');
const listed = bound('#/components/schemas/ErrorMetadata/properties/errors/maxItems');

const patchOperation = findOperation('updateObservabilityDestination');
const patch = patchOperation.operation;
const check = requestBodySizesChecks(spec, createSpecAjv(spec)).get(requestBodySchemaPointer(patchOperation));
if (!check) throw new Error('no sizes check for the PATCH body');

const rules = (n: number, rule: unknown = {}) => Array.from({ length: n }, () => rule);

describe('the sizes check of a body', () => {
  it('passes every example of the spec untouched', () => {
    const content = patch.requestBody?.content['application/json'] as unknown as {
      examples: Record<string, { value: unknown }>;
    };
    const examples = Object.values(content.examples);
    expect(examples.length).toBeGreaterThan(0);
    for (const { value } of examples) {
      const body = structuredClone(value);
      expect(check(body, '/body')).toEqual([]);
      expect(body).toEqual(value);
    }
  });

  it('names each array past its maxItems once, and cuts it and what it holds down to the sizes', () => {
    const body = {
      filter_rules: { groups: Array.from({ length: maxGroups + 5 }, () => ({ rules: rules(maxRules + 7) })) },
      api_key_hashes: Array.from({ length: maxHashes + 1 }, () => 'x'),
    };
    const errors = check(body, '/body');
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    expect(errors.toSorted(byPath)).toEqual(
      [
        { path: '/body/filter_rules/groups', message: `must NOT have more than ${maxGroups} items` },
        { path: '/body/api_key_hashes', message: `must NOT have more than ${maxHashes} items` },
        ...Array.from({ length: maxGroups }, (_, i) => ({
          path: `/body/filter_rules/groups/${i}/rules`,
          message: `must NOT have more than ${maxRules} items`,
        })),
      ].toSorted(byPath),
    );
    expect(body.filter_rules.groups).toHaveLength(maxGroups);
    for (const group of body.filter_rules.groups) expect(group.rules).toHaveLength(maxRules);
    expect(body.api_key_hashes).toHaveLength(maxHashes);
  });

  it('reads an object that takes no other properties up to as many unknown ones as a 400 lists, and one more', () => {
    const rule = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 0]));
    const body = { filter_rules: { groups: [{ rules: [rule] }] } };
    expect(check(body, '/body')).toEqual([]);
    // A rule of any kind declares at most three properties of its own.
    const kept = Object.keys(body.filter_rules.groups[0]?.rules[0] ?? {}).length;
    expect(kept).toBeGreaterThan(listed);
    expect(kept).toBeLessThanOrEqual(listed + 1 + 3);
  });

  it('keeps an object with a few unknown properties whole, for the validator to name each', () => {
    const body = { name: 'n', one: 1, two: 2 };
    expect(check(body, '/body')).toEqual([]);
    expect(body).toEqual({ name: 'n', one: 1, two: 2 });
  });

  it('leaves a value of another type than the sizes are for to the validator', () => {
    const body = { api_key_hashes: 'not a list', filter_rules: { groups: rules(3, 0) } };
    expect(check(body, '/body')).toEqual([]);
    expect(body.filter_rules.groups).toEqual([0, 0, 0]);
  });
});

describe('a PATCH whose body is past its sizes', () => {
  const server = useTestServer();
  const workspace = useWorkspace(server);
  const destination = useDestination(server, workspace);

  it('is a 400 naming the oversized array and the other failing fields, the items past the size unchecked', async () => {
    const { status, body } = await call(server, 'PATCH', destination.path, {
      key: workspace.managementKey,
      body: { sampling_rate: 'often', filter_rules: { groups: [{ rules: rules(30_000) }] } },
    });
    expect(status).toBe(400);
    const paths = (body.error.metadata.errors as { path: string }[]).map((e) => e.path);
    expect(paths).toContain('/body/filter_rules/groups/0/rules');
    expect(paths).toContain('/body/sampling_rate');
    expect(paths).not.toContain(`/body/filter_rules/groups/0/rules/${maxRules}/operator`);
  });

  it(`lists the first ${listed} failing fields and says that there are more, past them`, async () => {
    const { status, body } = await call(server, 'PATCH', destination.path, {
      key: workspace.managementKey,
      body: { filter_rules: { groups: Array.from({ length: maxGroups }, () => ({ rules: rules(maxRules) })) } },
    });
    expect(status).toBe(400);
    expect(body.error.metadata.errors).toHaveLength(listed);
    expect(body.error.message).toMatch(new RegExp(`\\(and more: metadata\\.errors lists the first ${listed}\\)$`));
  });

  it('says how many more failing fields there are when they are fewer than the bound', async () => {
    const { body } = await call(server, 'PATCH', destination.path, {
      key: workspace.managementKey,
      body: { filter_rules: { groups: [{ rules: rules(5) }] } },
    });
    expect(body.error.metadata.errors).toHaveLength(5);
    expect(body.error.message).toMatch(/\(and 2 more\)$/);
  });
});
