// What the linear-time analysis finds for a set of patterns, and what it costs in steps: the costs
// the bounds of ANALYSIS_STEPS (openapi.yaml, RegexFilterRule) were set against. A step counted
// more or less changes which patterns fit the bounds, so a change to a cost is made here on
// purpose. The patterns are chosen so that each part of the analysis (its caches, its walks, the
// cases of its automaton) changes a verdict or a cost of at least one of them when it goes wrong.
import { describe, expect, it } from 'vitest';
import { ANALYSIS_STEPS, AnalysisAllowance, nonLinearPatternReason } from '../../server/regex/linearity.js';

type Verdict = 'linear' | 'exponential' | 'ambiguous' | 'restarts';

const ANALYSIS_COSTS: [pattern: string, verdict: Verdict, steps: number][] = [
  ['foo.*bar', 'restarts', 234],
  ['^(\\w+\\s?)*$', 'exponential', 452],
  ['a+b', 'restarts', 181],
  ['\\bstop\\b', 'linear', 108],
  ['\\s+$', 'restarts', 236],
  ['gpt.*', 'linear', 142],
  ['\\d+\\.\\d+', 'restarts', 256],
  ['(.*a){12}', 'ambiguous', 1629],
  ['^(?:^|$)a', 'linear', 188],
  ['^a(?:\\b)?b', 'linear', 157],
  ['\\d{1,3}\\.\\d{1,3}', 'linear', 285],
  ['^(([a-z])+.)+[A-Z]([a-z])+$', 'exponential', 818],
  ['^(anthropic|openai)/.*$', 'linear', 352],
  ['^(?:)', 'linear', 100],
  // NUL is the character 0: it reads a character, not a mark.
  ['\\0+x', 'restarts', 182],
  ['^(?=a)', 'linear', 246],
  ['(?-i:a)', 'linear', 108],
  ['^(?:ſb)*', 'linear', 151],
  ['^(?:$)*$', 'linear', 183],
  // A class of no character matches nothing, in a loop or before anything.
  ['^(?:[])*$', 'linear', 184],
  ['[](?:(?:)|\\b)', 'linear', 127],
  ['^(?:[s]S|[s])', 'linear', 190],
  // Two ways to match nothing at one place: refused, as every ambiguity is; before a character,
  // two ways to reach it.
  ['^a(?:(?:|)b)$', 'ambiguous', 193],
  ['^(?:(?:(?!b)|\\b))?', 'ambiguous', 294],
  ['(?:(?:.)?|(?:[^])*)$', 'ambiguous', 268],
  // Pairs of positions met in both orders, and assertions in a loop of counted copies.
  ['(?:[^a]A(?:(?m:^)|b)){3,}(?<=a)[ab]\\p{L}$', 'restarts', 3182],
  ['^ſ(?:\\w|(?=a))(?:(?s:.))*(?:\\b|\\b)é$', 'ambiguous', 524],
];

/** The verdict a reason words, and the steps its analysis took of a request's allowance. */
function analysed(pattern: string): { verdict: string; steps: number } {
  const allowance = new AnalysisAllowance();
  const reason = nonLinearPatternReason(pattern, allowance);
  const verdict =
    reason === undefined
      ? 'linear'
      : /exponential/.test(reason)
        ? 'exponential'
        : /faster than the length/.test(reason)
          ? 'ambiguous'
          : /quadratic/.test(reason)
            ? 'restarts'
            : reason;
  return { verdict, steps: ANALYSIS_STEPS.perRequest - allowance.remaining };
}

describe('the analysis of a pattern', () => {
  it.each(ANALYSIS_COSTS)('finds %s %s, in %i steps', (pattern, verdict, steps) => {
    expect(analysed(pattern)).toEqual({ verdict, steps });
  });

  it('costs far less than its bound for each of these patterns', () => {
    for (const [pattern, , steps] of ANALYSIS_COSTS)
      expect(steps).toBeLessThan((ANALYSIS_STEPS.perPattern + ANALYSIS_STEPS.perCharacter * pattern.length) / 2);
  });
});
