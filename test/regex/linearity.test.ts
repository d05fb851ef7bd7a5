// The rule that a `regex` filter rule's pattern matches in linear time: which patterns are refused
// and why, what cannot be checked, the bounds on the check, and the fields named in a body.
import { describe, expect, it } from 'vitest';
import {
  ANALYSIS_STEPS,
  MAX_PATTERN_POSITIONS,
  nonLinearPatternErrors,
  nonLinearPatternReason,
} from '../../server/regex/linearity.js';
import { nodeAt } from '../../server/spec.js';
import { CATASTROPHIC_PATTERNS, LINEAR_PATTERNS } from '../support/regex-patterns.js';
import { spec } from '../support/spec.js';

const regexValue = nodeAt(spec, '#/components/schemas/RegexFilterRule/properties/value') as Record<string, unknown>;

describe('nonLinearPatternReason', () => {
  it.each(CATASTROPHIC_PATTERNS)('refuses %s, saying why', (pattern, reason) => {
    expect(() => new RegExp(pattern, 'u')).not.toThrow();
    expect(nonLinearPatternReason(pattern)).toMatch(reason);
  });

  it.each(LINEAR_PATTERNS)('accepts %s', (pattern) => {
    expect(() => new RegExp(pattern, 'u')).not.toThrow();
    expect(nonLinearPatternReason(pattern)).toBeUndefined();
  });

  it.each([
    ['a backreference', '(a)\\1', /backreference \(\\1\)/],
    ['a named backreference', '(?<x>a)\\k<x>', /backreference \(\\k<x>\)/],
    ['a lookahead that repeats without bound', 'a(?=.*x)', /lookaround that repeats without bound \(\(\?=\.\*x\)\)/],
    ['a lookbehind that repeats without bound', '(?<=x+)a', /lookaround that repeats without bound/],
  ])('refuses %s', (_name, pattern, reason) => {
    expect(nonLinearPatternReason(pattern)).toMatch(reason);
  });

  it('checks a bounded lookaround as a pattern of its own', () => {
    expect(nonLinearPatternReason('^(?=a{1,3})a')).toBeUndefined();
    expect(nonLinearPatternReason('^(?=(a|a){1,3}b)a')).toMatch(/in the lookaround \(\?=\(a\|a\)\{1,3\}b\)/);
  });

  it(`refuses a pattern of more than ${MAX_PATTERN_POSITIONS} things to match once its counted repetitions are written out`, () => {
    const literal = 'x'.repeat(MAX_PATTERN_POSITIONS - 24);
    expect(nonLinearPatternReason(`${literal}a{24}`)).toBeUndefined();
    expect(nonLinearPatternReason(`${literal}a{25}`)).toMatch(/too large/);
    expect(nonLinearPatternReason(`^${literal}a{23}$`)).toMatch(/too large/);
  });

  it('stops writing out a short pattern of large counts at its bound of steps', () => {
    const started = performance.now();
    expect(nonLinearPatternReason('(a{1,1000}){1,1000}')).toMatch(/too complex to check/);
    expect(nonLinearPatternReason('a{1000}')).toMatch(/too complex to check/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it(`checks the patterns of one request within ${ANALYSIS_STEPS.perRequest} steps together, the later ones refused as not checked`, () => {
    const rules = Array.from({ length: 200 }, (_, i) => ({
      field: 'model',
      operator: 'regex',
      value: `^${i}${'abcdefghij'.repeat(100)}`,
    }));
    const errors = nonLinearPatternErrors(
      { groups: [{ rules }] } as Parameters<typeof nonLinearPatternErrors>[0],
      '/f',
    );
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.length).toBeLessThan(rules.length);
    for (const error of errors) expect(error.message).toMatch(/was not checked/);
    expect(errors[0]?.path).not.toBe('/f/groups/0/rules/0/value');
  });

  it('refuses a pattern whose analysis would take more than its bound of steps, without taking them', () => {
    const pattern = `${'a?'.repeat(500)}b`;
    const started = performance.now();
    expect(nonLinearPatternReason(pattern)).toMatch(/too complex to check/);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('reads the flags of a group with modifiers', () => {
    // With i, `a` and `A` are one character to match, so the two loops can trade it.
    expect(nonLinearPatternReason('^(?i:A)+a+$')).toMatch(/faster than the length/);
    expect(nonLinearPatternReason('^A+a+$')).toBeUndefined();
  });

  it('takes ^ and $ in multiline mode as assertions that may fail anywhere', () => {
    expect(nonLinearPatternReason('(?m:^)a+b')).toMatch(/quadratic/);
  });
});

describe('nonLinearPatternErrors', () => {
  const rule = (operator: string, value: unknown) => ({ field: 'model', operator, value });

  it('names each refused pattern by group and rule, and nothing else', () => {
    const filterRules = {
      groups: [
        { rules: [rule('regex', '^ok$'), rule('contains', '(a+)+$')] },
        { rules: [rule('regex', '^ok$'), rule('equals', 'x'), rule('regex', '(a+)+$'), rule('regex', 'a+b')] },
      ],
    } as Parameters<typeof nonLinearPatternErrors>[0];
    expect(nonLinearPatternErrors(filterRules, '/body/filter_rules')).toEqual([
      { path: '/body/filter_rules/groups/1/rules/2/value', message: expect.stringMatching(/exponential/) },
      { path: '/body/filter_rules/groups/1/rules/3/value', message: expect.stringMatching(/quadratic/) },
    ]);
  });

  it('has nothing to say of no rules', () => {
    expect(nonLinearPatternErrors(null, '/body/filter_rules')).toEqual([]);
    expect(nonLinearPatternErrors(undefined, '/body/filter_rules')).toEqual([]);
  });
});

describe('openapi.yaml', () => {
  it('marks the pattern with x-linear-time and keeps format: regex', () => {
    expect(regexValue['x-linear-time']).toBe(true);
    expect(regexValue.format).toBe('regex');
  });

  it('states the bounds the check applies', () => {
    const prose = String(regexValue.description);
    for (const bound of [MAX_PATTERN_POSITIONS, ...Object.values(ANALYSIS_STEPS)]) expect(prose).toContain(`${bound}`);
  });
});
