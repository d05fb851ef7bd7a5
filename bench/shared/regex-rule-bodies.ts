// PATCH bodies of `regex` filter rules for the cost of checking their patterns (openapi.yaml,
// RegexFilterRule): the same body with equality rules, the plain PATCH of its size; bodies at the
// byte limit of the patterns costliest to check; and a body of one rule. The fields, operators and
// the array sizes come from the spec. `npm run bench:regex-rules` sends them to the build;
// test/server/regex-filter-rules.test.ts to the sources.
import { nodeAt, type OpenApiDocument } from '../../server/spec.js';

export interface RuleBody {
  shape: string;
  body: string;
  rules: number;
}

interface Limits {
  field: string;
  regex: string;
  equals: string;
  groups: number;
  rulesPerGroup: number;
}

function limitsOf(spec: OpenApiDocument): Limits {
  const schema = (name: string) => nodeAt(spec, `#/components/schemas/${name}`) as Record<string, unknown>;
  const property = (name: string, key: string) =>
    (schema(name).properties as Record<string, Record<string, unknown>>)[key] as Record<string, unknown>;
  const firstOf = (name: string, key: string) => (property(name, key).enum as string[])[0] as string;
  return {
    field: (schema('FilterField').enum as string[])[0] as string,
    regex: firstOf('RegexFilterRule', 'operator'),
    equals: firstOf('EqualityFilterRule', 'operator'),
    groups: property('FilterRules', 'groups').maxItems as number,
    rulesPerGroup: property('FilterRuleGroup', 'rules').maxItems as number,
  };
}

/** As many rules of `values` (taken in turn) as the byte limit and the array sizes allow. */
function fill(limits: Limits, operator: string, values: (index: number) => string, limitBytes: number) {
  const groups: { rules: { field: string; operator: string; value: string }[] }[] = [];
  let count = 0;
  const size = () => Buffer.byteLength(JSON.stringify({ filter_rules: { groups } }));
  for (let g = 0; g < limits.groups; g++) {
    const group = { rules: [] as { field: string; operator: string; value: string }[] };
    groups.push(group);
    for (let r = 0; r < limits.rulesPerGroup; r++) {
      group.rules.push({ field: limits.field, operator, value: values(count) });
      if (size() > limitBytes) {
        group.rules.pop();
        if (group.rules.length === 0) groups.pop();
        return { body: JSON.stringify({ filter_rules: { groups } }), rules: count };
      }
      count++;
    }
  }
  return { body: JSON.stringify({ filter_rules: { groups } }), rules: count };
}

/** Up to `max` characters: `start`, then `unit` as many times as fit, then `end`. */
function repeated(unit: string, max: number, start = '^', end = ''): string {
  const times = Math.max(0, Math.floor((max - start.length - end.length) / unit.length));
  return `${start}${unit.repeat(times)}${end}`;
}

function alternation(max: number, word: (i: number) => string, around: [string, string]): string {
  const words: string[] = [];
  while (`${around[0]}${[...words, word(words.length)].join('|')}${around[1]}`.length <= max)
    words.push(word(words.length));
  return `${around[0]}${words.join('|')}${around[1]}`;
}

/** The patterns that cost the analysis most per byte of the body, each a function of the rule's index. */
export function costlyPatterns(maxLength: number): [shape: string, pattern: (i: number) => string][] {
  const tag = (i: number) => i.toString(36);
  return [
    ['1,024 literal characters', (i) => repeated('abcdefghij', maxLength, `^${tag(i)}`)],
    [
      'words sharing a first letter, in a repetition',
      (i) => alternation(maxLength, (w) => `w${tag(w + i)}`, ['^(?:', ')*$']),
    ],
    ['one character, in a repetition, hundreds of times', () => alternation(maxLength, () => 'a', ['^(?:', ')*$'])],
    ['a counted repetition written out to 1,000 classes', (i) => `^[^${tag(i)}]{1,1000}$`],
    ['counted repetitions nested', (i) => `^(?:[a-z${tag(i)}]{1,30}){1,30}$`],
    ['optional characters in a chain', (i) => `${repeated('a?', maxLength - 4, '')}b${tag(i).slice(0, 3)}`],
    [
      'Unicode property classes, each distinct',
      (i) => repeated(`[\\p{L}\\u{${(0x2000 + i).toString(16)}}]`, maxLength),
    ],
    ['bounded lookaheads', (i) => repeated(`(?=[a-z${tag(i)}]{1,8}b)`, maxLength)],
    ['optional groups nested', () => `^${'(?:a'.repeat(170)}${')?'.repeat(170)}`],
  ];
}

export function regexRuleBodies(spec: OpenApiDocument, limitBytes: number) {
  const limits = limitsOf(spec);
  const value = nodeAt(spec, '#/components/schemas/RegexFilterRule/properties/value') as { maxLength: number };
  const literal = (i: number) => repeated('abcdefghij', 40, `^${i.toString(36)}`);
  const one = { field: limits.field, operator: limits.regex, value: '^openai/gpt-4' };
  return {
    oneRegexRule: JSON.stringify({ filter_rules: { groups: [{ rules: [one] }] } }),
    oneEqualityRule: JSON.stringify({ filter_rules: { groups: [{ rules: [{ ...one, operator: limits.equals }] }] } }),
    /** At the byte limit: short literal patterns as regex rules, and the same values as equality rules. */
    literalRegexRules: fill(limits, limits.regex, literal, limitBytes),
    literalEqualityRules: fill(limits, limits.equals, literal, limitBytes),
    costly: costlyPatterns(value.maxLength).map(
      ([shape, pattern]): RuleBody => ({
        shape,
        ...fill(limits, limits.regex, pattern, limitBytes),
      }),
    ),
  };
}
