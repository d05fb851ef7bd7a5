// The rules of spec:diff: every finding has a stable id and a level. Every rule of oasdiff's
// registry (oasdiff-rules.ts) is one of spec:diff's, at oasdiff's level; the project's own rules,
// for what oasdiff does not judge, carry the `project-` prefix and say why. Where the project is
// stricter than oasdiff on purpose, the rule keeps oasdiff's id and records the override, and every
// finding under it says so.
import { OASDIFF_RELEASE, OASDIFF_RULES, type OasdiffLevel } from './oasdiff-rules.js';

export type Level = 'error' | 'warning' | 'info';

export interface Rule {
  level: Level;
  source: 'oasdiff' | 'project';
  /** Why the project classes what oasdiff does not, or why it overrides oasdiff. */
  note?: string;
  /** oasdiff's own level, where the project reports the rule louder (see `note`). */
  oasdiffLevel?: Level;
  /** Whether the override applies to every finding, or only where the engine says it does. */
  overrideAlways?: boolean;
}

export { OASDIFF_RELEASE };

const FROM_OASDIFF: Record<OasdiffLevel, Level> = { ERR: 'error', WARN: 'warning', INFO: 'info' };

/** The subjects a schema change is found in: what a client sends, or what it receives. */
export const REQUEST_SUBJECTS = ['request-parameter', 'request-body', 'request-property'] as const;
export const RESPONSE_SUBJECTS = ['response-body', 'response-property'] as const;
export type SchemaSubject = (typeof REQUEST_SUBJECTS)[number] | (typeof RESPONSE_SUBJECTS)[number];

// Schema changes oasdiff has no rule for on some subject, classed by the project in the direction
// the schema flows: a client's request refused, or a response value the client did not expect.
const PROJECT_REQUEST_KINDS: Record<string, Level> = {
  'min-length-set': 'error',
  'max-items-set': 'error',
  'max-properties-set': 'error',
  'min-properties-set': 'error',
  'min-contains-set': 'error',
  'max-contains-set': 'error',
  'max-items-decreased': 'error',
  'max-items-increased': 'info',
  'min-items-decreased': 'info',
  'max-properties-decreased': 'error',
  'max-properties-increased': 'info',
  'min-properties-increased': 'error',
  'min-properties-decreased': 'info',
  'unique-items-added': 'error',
  'unique-items-removed': 'info',
  'not-added': 'error',
  'not-removed': 'info',
  'additional-properties-refused': 'error',
};
const PROJECT_RESPONSE_KINDS: Record<string, Level> = {
  'max-unset': 'error',
  'exclusive-max-unset': 'error',
  'min-unset': 'error',
  'exclusive-min-unset': 'error',
  'min-length-unset': 'error',
  'max-items-increased': 'error',
  'max-items-unset': 'error',
  'max-properties-unset': 'error',
  'min-properties-unset': 'error',
  'min-contains-unset': 'error',
  'max-contains-unset': 'error',
  'max-properties-increased': 'error',
  'min-properties-decreased': 'error',
  'unique-items-removed': 'error',
  'unique-items-added': 'info',
  'not-removed': 'error',
  'not-added': 'info',
};
const PROJECT_SCHEMA_NOTE =
  'oasdiff judges this keyword on other subjects only, or not at all: classed by the direction the schema flows';

function projectSchemaRules(): Record<string, Rule> {
  const rules: Record<string, Rule> = {};
  const add = (subjects: readonly string[], kinds: Record<string, Level>) => {
    for (const subject of subjects)
      for (const [kind, level] of Object.entries(kinds))
        if (!OASDIFF_RULES[`${subject}-${kind}`])
          rules[`project-${subject}-${kind}`] = { level, source: 'project', note: PROJECT_SCHEMA_NOTE };
  };
  add(REQUEST_SUBJECTS, PROJECT_REQUEST_KINDS);
  add(RESPONSE_SUBJECTS, PROJECT_RESPONSE_KINDS);
  return rules;
}

const project = (level: Level, note: string): Rule => ({ level, source: 'project', note });

/** Where the project reports an oasdiff rule louder than oasdiff does, and why. */
const OVERRIDES: Record<string, { level: Level; note: string; always: boolean }> = {
  'api-security-removed': {
    level: 'error',
    note: 'a client that authenticates with the removed alternative is refused',
    always: true,
  },
  'api-security-scope-added': {
    level: 'error',
    note: 'a key that held the roles required before is refused now',
    always: true,
  },
  'api-security-added': {
    level: 'error',
    note: 'raised only where the operation needed no credentials before, and now needs some',
    always: false,
  },
  'api-global-security-added': {
    level: 'error',
    note: 'raised only where an operation that needed no credentials now needs some',
    always: false,
  },
};

function oasdiffRules(): Record<string, Rule> {
  const rules: Record<string, Rule> = {};
  for (const [id, level] of Object.entries(OASDIFF_RULES)) {
    const override = OVERRIDES[id];
    rules[id] = override
      ? {
          level: override.level,
          source: 'oasdiff',
          note: override.note,
          oasdiffLevel: FROM_OASDIFF[level],
          overrideAlways: override.always,
        }
      : { level: FROM_OASDIFF[level], source: 'oasdiff' };
  }
  return rules;
}

export const RULES: Record<string, Rule> = {
  ...oasdiffRules(),
  ...projectSchemaRules(),
  'project-request-parameter-style-changed': project(
    'error',
    'the parameter is serialised another way: a client that keeps the old style sends what is misread',
  ),
  'project-request-parameter-explode-changed': project('error', 'as a changed style'),
  'project-documentation-changed': project(
    'info',
    'a description, summary, title, example or `x-` extension: readers of the docs see it, code does not',
  ),
};

export type RuleId = keyof typeof RULES;

export const LEVELS: readonly Level[] = ['error', 'warning', 'info'];

/** How a finding under an override says so, in its own line of the report. */
export function overrideText(rule: Rule): string | undefined {
  if (!rule.oasdiffLevel) return undefined;
  const said: Record<Level, string> = { error: 'errs', warning: 'warns', info: 'says info' };
  return `project override: oasdiff ${said[rule.oasdiffLevel]}`;
}

/** The id of a schema change on a subject: oasdiff's where it has one, else the project's, else none. */
export function schemaRuleId(subject: string, kind: string): string | undefined {
  const own = `${subject}-${kind}`;
  if (OASDIFF_RULES[own]) return own;
  return RULES[`project-${own}`] ? `project-${own}` : undefined;
}
