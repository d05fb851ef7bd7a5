// What a mutation run counts as reached by each test: the hits a file's hooks took go to every test
// of that file, so that such a mutant runs those tests instead of the whole suite; hits taken while
// modules loaded stay static, since only a reload can switch those mutants on.
import { describe, expect, it } from 'vitest';
import { attributeHookHits } from '../support/runner/mutation-hook-coverage.js';

describe('mutation coverage of hooks', () => {
  it('moves hits taken in hooks from static to each test of the file, keeping hits taken while loading', () => {
    const coverage = {
      static: { '1': 3, '2': 5, '3': 2 },
      perTest: { 'a.test.ts#first': { '4': 1 } },
    };
    attributeHookHits(coverage, { '2': 5, '3': 1 }, ['a.test.ts#first', 'a.test.ts#second']);
    expect(coverage).toEqual({
      static: { '2': 5, '3': 1 },
      perTest: {
        'a.test.ts#first': { '1': 3, '3': 1, '4': 1 },
        'a.test.ts#second': { '1': 3, '3': 1 },
      },
    });
  });

  it('leaves everything static when the file ran no test', () => {
    const coverage = { static: { '1': 3 }, perTest: {} };
    attributeHookHits(coverage, {}, []);
    expect(coverage).toEqual({ static: { '1': 3 }, perTest: {} });
  });
});
