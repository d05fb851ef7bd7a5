// Patterns for the rule that a `regex` filter rule's pattern matches in linear time (openapi.yaml,
// RegexFilterRule): known catastrophic ones, each with the reason it is refused for, and safe ones.

/** Refused: the pattern, and what the reason says (exponential, polynomial, or quadratic time). */
export const CATASTROPHIC_PATTERNS: [pattern: string, reason: RegExp][] = [
  // Two ways around one repetition: exponential.
  ['(a+)+$', /exponential/],
  ['(a|a)*b', /exponential/],
  ['(a*)*b', /exponential/],
  ['^(\\w+\\s?)*$', /exponential/],
  ['(x+x+)+y', /exponential/],
  ['^(a|aa)+$', /exponential/],
  ['^(([a-z])+.)+[A-Z]([a-z])+$', /exponential/],
  ['^([a-zA-Z0-9_.+-])+@(([a-zA-Z0-9-])+\\.)+([a-zA-Z0-9]{2,4})+$', /exponential/],
  ['^(\\d+|\\d+\\.\\d+)*$', /exponential/],
  // A class of one range and a character inside it: the class reads more than its first character.
  ['^(?:[0-9]|5)+$', /exponential/],
  // Two ways to match the same text outside one repetition: polynomial, or a factor that grows with the pattern.
  ['(.*a){12}', /faster than the length/],
  ['\\s*#?\\s*$', /faster than the length/],
  ['^.*foo.*bar', /faster than the length/],
  ['^[\\w.]+\\.[\\w.]+$', /faster than the length/],
  ['(a|a){30}b', /faster than the length/],
  ['(?:(?:|)(?:|))*x', /faster than the length/],
  // Tried at every position of the text, attempts that go over the same text: quadratic.
  ['a+b', /quadratic/],
  ['foo.*bar', /quadratic/],
  ['gpt-4.*turbo', /quadratic/],
  ['\\d+\\.\\d+', /quadratic/],
  ['\\s+$', /quadratic/],
  ['[a-z]+@example\\.com', /quadratic/],
];

/** Accepted: a search for each takes time linear in the text's length. */
export const LINEAR_PATTERNS: string[] = [
  '^openai/gpt-4',
  'claude-3\\.(5|7)',
  '^[a-z]+$',
  '^foo.*bar',
  'sonnet',
  'gpt-4o?',
  'gpt.*',
  '^(anthropic|openai)/.*$',
  '^[\\w.+-]+@[\\w-]+(\\.[\\w-]+)*\\.[a-z]{2,}$',
  '\\d{1,3}\\.\\d{1,3}',
  '^\\p{Lu}\\p{Ll}*(?: \\p{Lu}\\p{Ll}*)*$',
  '^(?:a|b)*$',
  '\\bstop\\b',
  '^[^/]+/(?=[a-z])[a-z0-9-]+$',
  // `^` and `$` read different marks: after `^`, only `^` matches again.
  '^(?:^|$)a',
  // An optional part that can match nothing only: ECMAScript refuses the empty iteration, so skipping is its one way.
  '^a(?:\\b)?b',
];
