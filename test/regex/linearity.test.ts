// The rule that a `regex` filter rule's pattern matches in linear time: which patterns are refused
// and why, what cannot be checked, the bounds on the check, and the fields named in a body.
import { describe, expect, it } from 'vitest';
import {
  ANALYSIS_STEPS,
  AnalysisAllowance,
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

  it("counts a lookaround's positions with the pattern's", () => {
    const literal = 'x'.repeat(MAX_PATTERN_POSITIONS - 24);
    expect(nonLinearPatternReason(`${literal}(?=${'b'.repeat(23)})`)).toBeUndefined();
    expect(nonLinearPatternReason(`${literal}(?=${'b'.repeat(24)})`)).toMatch(/too large/);
  });

  it('refuses a lookaround that repeats without bound inside a counted repetition', () => {
    expect(nonLinearPatternReason('x(?=(?:a+){2})')).toMatch(
      /lookaround that repeats without bound \(\(\?=\(\?:a\+\)\{2\}\)\)/,
    );
  });

  it('words a refusal found in the pattern itself without naming a lookaround', () => {
    expect(nonLinearPatternReason('a+b')).toMatch(/split it into rules of their own$/);
  });

  it('checks a pattern whose analysis takes exactly the steps the request has left', () => {
    const pattern = '^(a|b)*c';
    const measured = new AnalysisAllowance();
    expect(nonLinearPatternReason(pattern, measured)).toBeUndefined();
    const steps = ANALYSIS_STEPS.perRequest - measured.remaining;
    const exact = Object.assign(new AnalysisAllowance(), { remaining: steps });
    expect(nonLinearPatternReason(pattern, exact)).toBeUndefined();
    expect(exact.remaining).toBe(0);
    const short = Object.assign(new AnalysisAllowance(), { remaining: steps - 1 });
    expect(nonLinearPatternReason(pattern, short)).toMatch(/was not checked/);
  });

  it('says a pattern is too complex when its own bound ran out, though the request had exactly that bound left', () => {
    const pattern = `${'a?'.repeat(500)}b`;
    const own = ANALYSIS_STEPS.perPattern + ANALYSIS_STEPS.perCharacter * pattern.length;
    const allowance = Object.assign(new AnalysisAllowance(), { remaining: own });
    expect(nonLinearPatternReason(pattern, allowance)).toMatch(/too complex to check/);
  });

  it.each([
    // Without the s flag, `.` reads no line terminator.
    ['^(?:.|\\n)+$', undefined],
    ['^(?s:.|\\n)+$', /exponential/],
    // In Unicode mode `.` reads a character beyond 16 bits as one.
    ['^(?:.|\u{1F600})+$', /exponential/],
    // With i in Unicode mode, ſ and K (the Kelvin sign) fold to s and k; without i they do not.
    ['^(?i:s|ſ)+$', /exponential/],
    ['^(?i:k|\u212A)+$', /exponential/],
    ['^(?:s|ſ)+$', undefined],
    // A group that removes i reads its characters as written.
    ['^(?i:(?-i:a)|(?-i:A))+$', undefined],
  ])('reads %s with the flags in force where each part stands', (pattern, reason) => {
    const said = nonLinearPatternReason(pattern);
    if (reason === undefined) expect(said).toBeUndefined();
    else expect(said).toMatch(reason);
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
