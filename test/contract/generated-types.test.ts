// Type-level tests of the types generated from openapi.yaml, checked by `npm run typecheck`: what
// the schema refuses does not compile in a consumer either.
import { describe, expectTypeOf, it } from 'vitest';
import type { components } from '../../generated/api.js';

type FilterRule = components['schemas']['FilterRule'];

describe('generated types', () => {
  it('pairs each filter operator with the value it takes', () => {
    const valid: FilterRule[] = [
      { field: 'total_cost', operator: 'gt', value: 3 },
      { field: 'total_tokens', operator: 'lte', value: 1000 },
      { field: 'model', operator: 'contains', value: 'gpt' },
      { field: 'model', operator: 'regex', value: '^openai/' },
      { field: 'finish_reason', operator: 'equals', value: 'stop' },
      { field: 'prompt_tokens', operator: 'not_equals', value: 0 },
      { field: 'user_id', operator: 'exists' },
      { field: 'session_id', operator: 'not_exists' },
    ];
    expectTypeOf(valid).toEqualTypeOf<FilterRule[]>();

    const invalid = (): FilterRule[] => [
      // @ts-expect-error: gt compares with a number
      { field: 'total_cost', operator: 'gt', value: 'x' },
      // @ts-expect-error: contains looks for a string
      { field: 'model', operator: 'contains', value: 3 },
      // @ts-expect-error: exists takes no value
      { field: 'user_id', operator: 'exists', value: 'x' },
      // @ts-expect-error: gt needs a value
      { field: 'total_cost', operator: 'gt' },
      // @ts-expect-error: equals takes a string or a number
      { field: 'model', operator: 'equals', value: true },
      // @ts-expect-error: no such operator
      { field: 'model', operator: 'like', value: 'x' },
    ];
    expectTypeOf(invalid).toBeFunction();
  });

  it('takes the key kinds from the contract', () => {
    expectTypeOf<components['schemas']['KeyKind']>().toEqualTypeOf<'management' | 'standard'>();
    expectTypeOf<NonNullable<components['schemas']['ErrorMetadata']['accepted_key_kinds']>>().toEqualTypeOf<
      components['schemas']['KeyKind'][]
    >();
  });
});
