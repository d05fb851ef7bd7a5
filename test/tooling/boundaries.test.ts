import { describe, expect, it } from 'vitest';
import { type BoundaryCase, boundaryCases } from '../support/boundaries.js';
import { describeErrors, parameterSchema, requestBodySchema } from '../support/spec.js';

function validatorFor(target: BoundaryCase['target']) {
  return target.in === 'body'
    ? requestBodySchema(target.operationId)
    : parameterSchema(target.operationId, target.in, target.name);
}

/** Where the schema validator reports an error, written as the error envelope names fields. */
function reportedPaths(testCase: BoundaryCase, errors: ReturnType<typeof validatorFor>['errors']): string[] {
  const prefix = testCase.target.in === 'body' ? '/body' : `/${testCase.target.in}/${testCase.target.name}`;
  return (errors ?? []).map((error) => {
    const extra = error.keyword === 'additionalProperties' ? `/${String(error.params.additionalProperty)}` : '';
    return `${prefix}${error.instancePath}${extra}`;
  });
}

describe('boundary values against the schemas of openapi.yaml', () => {
  it.each(boundaryCases.map((c) => [c.name, c] as const))('%s', (_name, testCase) => {
    const validate = validatorFor(testCase.target);
    const accepted = validate(testCase.value);
    expect(accepted, describeErrors(validate.errors)).toBe(testCase.valid);
    if (!testCase.valid) {
      expect(testCase.errorPath, 'an invalid case names the field its error must point at').toBeDefined();
      expect(reportedPaths(testCase, validate.errors)).toContain(testCase.errorPath);
    }
  });
});
