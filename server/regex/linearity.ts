// The rule of openapi.yaml's RegexFilterRule that no schema can say: a pattern is accepted only
// when a backtracking engine (JavaScript's RegExp) searches a text for it in time linear in the
// text's length (ambiguity.ts says why), and only when checking that stays within a bound of
// work proportional to the pattern's own length, so that a request's patterns cost at most a
// fixed multiple of their size.
import type { components } from '../../generated/api.js';
import type { FieldError } from '../domain/field-errors.js';
import { type SuperLinearFinding, superLinearCause } from './ambiguity.js';
import { OutOfBudget, UncheckablePattern, type Unsupported, WorkBudget } from './budget.js';
import { positionAutomaton } from './positions.js';

type FilterRules = components['schemas']['FilterRules'];

/** The characters, classes and anchors a pattern may have to match once its counted repetitions are written out. */
export const MAX_PATTERN_POSITIONS = 1024;

/**
 * The steps of analysis a pattern may take (a fixed allowance, and so many per character of the
 * pattern), and all the patterns of one request together.
 */
export const ANALYSIS_STEPS = { perPattern: 4096, perCharacter: 128, perRequest: 300_000 } as const;

/** Reading a pattern costs steps too, before its analysis begins: so many, and so many per character. */
const PARSE_STEPS = { perPattern: 64, perCharacter: 1 } as const;

const SUPER_LINEAR: Record<SuperLinearFinding['cause'], string> = {
  exponential:
    'can take time exponential in the length of the text it is matched against: it can match some text in more than one way around the same repetition (as `(a+)+` and `(a|a)*` can), and a backtracking engine such as JavaScript’s RegExp tries every way before it gives up',
  ambiguous:
    'can take time that grows faster than the length of the text it is matched against: it can match some text in more than one way (as `\\s*-?\\s*` can), and a backtracking engine such as JavaScript’s RegExp tries every way before it gives up; write it so that a text has one way to match',
  restarts:
    'can take time quadratic in the length of the text it is matched against: a search tries it at every position of the text, and an attempt begun later can go over the same text as one begun earlier (as with `a+b` or `foo.*bar`); anchor it with `^` at the start of the field, or split it into rules of their own',
};

function unsupportedMessage(reason: Unsupported): string {
  switch (reason.kind) {
    case 'backreference':
      return `has a backreference (${reason.raw}), which can take time exponential in the length of the text it is matched against`;
    case 'unbounded lookaround':
      return `has a lookaround that repeats without bound (${reason.raw}): it is matched again at every position, which takes time quadratic in the length of the text; bound its repetitions, as in \`{0,100}\``;
    case 'too many positions':
      return `is too large to check: written out, each counted repetition such as \`{1,100}\` as many times as it counts, it has more than ${reason.limit} characters, classes and anchors to match`;
  }
}

/** A bound on the steps of every analysis of one request, which each pattern draws from. */
export class AnalysisAllowance {
  remaining: number = ANALYSIS_STEPS.perRequest;
}

/**
 * Why matching `pattern` (ECMAScript, Unicode mode, already known to be valid) can take more than
 * linear time in a backtracking engine, or cannot be checked within its bounds; undefined when it
 * is linear. The steps it takes are drawn from `allowance`.
 */
export function nonLinearPatternReason(pattern: string, allowance = new AnalysisAllowance()): string | undefined {
  const own = ANALYSIS_STEPS.perPattern + ANALYSIS_STEPS.perCharacter * pattern.length;
  const budget = new WorkBudget(Math.min(own, allowance.remaining));
  try {
    budget.spend(PARSE_STEPS.perPattern + PARSE_STEPS.perCharacter * pattern.length);
    const finding = superLinearCause(positionAutomaton(pattern, budget, MAX_PATTERN_POSITIONS), budget);
    if (!finding) return undefined;
    const where = finding.lookaround ? ` (in the lookaround ${finding.lookaround})` : '';
    return `${SUPER_LINEAR[finding.cause]}${where}`;
  } catch (err) {
    if (err instanceof UncheckablePattern) return unsupportedMessage(err.reason);
    if (err instanceof OutOfBudget)
      return own <= allowance.remaining
        ? `is too complex to check within the bound on its analysis (${ANALYSIS_STEPS.perPattern} steps and ${ANALYSIS_STEPS.perCharacter} per character of the pattern): make it simpler or shorter`
        : `was not checked: the patterns of one request may take ${ANALYSIS_STEPS.perRequest} steps to check together, and the ones before it took them; send the rules in several requests`;
    if (err instanceof SyntaxError) return `cannot be read as an ECMAScript pattern in Unicode mode: ${err.message}`;
    throw err;
  } finally {
    allowance.remaining -= Math.min(own, allowance.remaining) - Math.max(0, budget.remaining);
  }
}

/** The field errors of the `regex` rules among `filterRules` whose pattern is not linear, named from `root`. */
export function nonLinearPatternErrors(filterRules: FilterRules | undefined, root: string): FieldError[] {
  const allowance = new AnalysisAllowance();
  const errors: FieldError[] = [];
  filterRules?.groups.forEach((group, groupIndex) => {
    group.rules.forEach((rule, ruleIndex) => {
      if (rule.operator !== 'regex') return;
      const reason = nonLinearPatternReason(rule.value, allowance);
      if (reason) errors.push({ path: `${root}/groups/${groupIndex}/rules/${ruleIndex}/value`, message: reason });
    });
  });
  return errors;
}
