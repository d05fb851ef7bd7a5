// The linear-time rule held against a ReDoS checker written by others: recheck, which decides a
// pattern's worst case by an automaton analysis of its own, then confirms it with an attack string.
// Every pattern recheck proves vulnerable must be refused. The rule may refuse more (it refuses
// any ambiguity, a bounded one too), so a pattern recheck finds safe may go either way; but a
// pattern with one way to match any text is accepted, and the known linear patterns are safe by
// recheck too.
import fc from 'fast-check';
import { checkSync, type Diagnostics } from 'recheck';
import { describe, expect, it } from 'vitest';
import { nonLinearPatternReason } from '../../server/regex/linearity.js';
import { PROPERTY_TIMEOUT_MS, RUNS, runParameters } from '../conformance/runs.js';
import { CATASTROPHIC_PATTERNS, LINEAR_PATTERNS } from '../support/regex-patterns.js';

/**
 * Refused though recheck finds them safe: two ways to match the empty text inside a repetition,
 * each tried and refused as an empty iteration, cost a constant factor, which the rule refuses
 * as it refuses every ambiguity.
 */
const REFUSED_BY_CHOICE = ['(?:(?:|)(?:|))*x'];

const verdicts = new Map<string, Diagnostics>();

/** recheck's verdict on a pattern in Unicode mode, as the rule reads it. */
function recheck(pattern: string): Diagnostics {
  let verdict = verdicts.get(pattern);
  if (!verdict) {
    verdict = checkSync(pattern, 'u', { timeout: 10_000 });
    verdicts.set(pattern, verdict);
  }
  return verdict;
}

const atom = fc.constantFrom('a', 'b', '.', '[ab]', '[^a]', '\\d', '\\s', '\\w');
const quantifier = fc.constantFrom('*', '+', '?', '{2}', '{1,3}', '{0,2}');
const { node } = fc.letrec<{ node: string; sequence: string; choice: string; repeat: string }>((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, atom, tie('sequence'), tie('choice'), tie('repeat')),
  sequence: fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((parts) => parts.join('')),
  choice: fc.tuple(tie('node'), tie('node')).map(([left, right]) => `(?:${left}|${right})`),
  repeat: fc.tuple(tie('node'), quantifier).map(([part, count]) => `(?:${part})${count}`),
}));
/** Small patterns over a few characters and classes, anchored or not at either end. */
const patterns = fc
  .tuple(fc.boolean(), node, fc.boolean())
  .map(([start, body, end]) => `${start ? '^' : ''}${body}${end ? '$' : ''}`);

/**
 * Patterns with one way to match any text, by construction: anchored at the start, each part
 * ends with a fixed character, a repeated class is followed by a character it cannot read, and
 * the branches of a choice begin with different characters.
 */
const { part: unambiguousPart } = fc.letrec<{ part: string; parts: string }>((tie) => ({
  part: fc.oneof(
    { depthSize: 'small', maxDepth: 2 },
    fc.constantFrom('a', 'b', 'c', 'd'),
    fc
      .tuple(fc.constantFrom('[ab]', '[a-c]', '\\d'), fc.constantFrom('+', '*', '{1,3}'))
      .map(([characters, count]) => `${characters}${count}${characters === '\\d' ? 'a' : 'd'}`),
    tie('parts').map((body) => `(?:c${body})?d`),
    fc.tuple(tie('parts'), tie('parts')).map(([left, right]) => `(?:a${left}|b${right})`),
  ),
  parts: fc.array(tie('part'), { minLength: 1, maxLength: 2 }).map((parts) => parts.join('')),
}));
const unambiguousPatterns = fc
  .tuple(fc.array(unambiguousPart, { minLength: 1, maxLength: 3 }), fc.boolean())
  .map(([parts, end]) => `^${parts.join('')}${end ? '$' : ''}`);

describe('the linear-time rule against recheck', () => {
  it(
    'accepts every pattern with one way to match a text, which recheck finds safe too',
    () => {
      fc.assert(
        fc.property(unambiguousPatterns, (pattern) => {
          expect(nonLinearPatternReason(pattern), pattern).toBeUndefined();
          expect(recheck(pattern).status, pattern).not.toBe('vulnerable');
        }),
        runParameters(Math.min(RUNS, 100)),
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'refuses every pattern recheck proves vulnerable',
    () => {
      let vulnerable = 0;
      fc.assert(
        fc.property(patterns, (pattern) => {
          const verdict = recheck(pattern);
          if (verdict.status !== 'vulnerable') return;
          vulnerable++;
          expect(nonLinearPatternReason(pattern), pattern).toBeDefined();
        }),
        runParameters(Math.min(RUNS, 300)),
      );
      // The property says something only if the patterns hold vulnerable ones.
      expect(vulnerable).toBeGreaterThan(Math.min(RUNS, 300) / 20);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it.each(CATASTROPHIC_PATTERNS.filter(([pattern]) => !REFUSED_BY_CHOICE.includes(pattern)))(
    'finds %s vulnerable too',
    (pattern) => {
      expect(recheck(pattern).status).toBe('vulnerable');
    },
  );

  it.each(REFUSED_BY_CHOICE)('finds %s safe, where the rule refuses it by its own choice', (pattern) => {
    expect(recheck(pattern).status).toBe('safe');
    expect(nonLinearPatternReason(pattern)).toBeDefined();
  });

  it.each(LINEAR_PATTERNS)('finds %s safe too', (pattern) => {
    expect(recheck(pattern).status).toBe('safe');
  });
});
