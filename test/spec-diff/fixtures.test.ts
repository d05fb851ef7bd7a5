// spec:diff on pairs written after oasdiff's own fixtures (fixtures.ts): every id the oasdiff test
// asserts, at oasdiff's level (or the project's declared override); and where that test runs all of
// oasdiff's checks, the gate agrees: a breaking pair fails it, any other passes it. What the test
// asserts oasdiff does not report must not be reported either.
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../scripts/spec-diff/battery/fixtures.js';
import { scoreFixture } from '../../scripts/spec-diff/battery/fixtures-score.js';

describe("spec:diff on pairs after oasdiff's fixtures", () => {
  it('cites an oasdiff checker test for every pair, each title once', () => {
    for (const pair of FIXTURES) expect(pair.title).toMatch(/^[a-z_]+_test Test\w+: /);
    expect(new Set(FIXTURES.map((pair) => pair.title)).size).toBe(FIXTURES.length);
  });

  it.each(FIXTURES.map((pair) => [pair.title, pair] as const))('%s', async (_title, pair) => {
    const result = await scoreFixture(pair);
    const { levelsMet, unexpected, gateAgrees } = result;
    expect({ levelsMet, unexpected, gateAgrees }, result.reported.join(', ')).toEqual({
      levelsMet: pair.ids,
      unexpected: [],
      gateAgrees: pair.checks === 'all' ? true : undefined,
    });
  });
});
