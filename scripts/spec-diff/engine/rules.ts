// The rules of spec:diff: every finding has a stable id and a level. Where oasdiff has a rule for
// the change, the id and level are oasdiff's (its checker registry); where it has none, or where
// this project decides otherwise, the rule says so (`source: 'project'`) and why.
export type Level = 'error' | 'warning' | 'info';

export interface Rule {
  level: Level;
  source: 'oasdiff' | 'project';
  /** Why the project departs from oasdiff, or classes what oasdiff does not. */
  note?: string;
}

const oasdiff = (level: Level): Rule => ({ level, source: 'oasdiff' });
const project = (level: Level, note: string): Rule => ({ level, source: 'project', note });

/** The subjects a schema change is found in: what a client sends, or what it receives. */
export const REQUEST_SUBJECTS = ['request-parameter', 'request-body', 'request-property'] as const;
export const RESPONSE_SUBJECTS = ['response-body', 'response-property'] as const;
export type SchemaSubject = (typeof REQUEST_SUBJECTS)[number] | (typeof RESPONSE_SUBJECTS)[number];

/** What a client sends: tightening breaks it, loosening does not. */
const REQUEST_SCHEMA_KINDS: Record<string, Level> = {
  'type-changed': 'error',
  'became-not-nullable': 'error',
  'became-nullable': 'info',
  'max-decreased': 'error',
  'max-increased': 'info',
  'max-set': 'error',
  'min-increased': 'error',
  'min-decreased': 'info',
  'min-set': 'error',
  'exclusive-max-decreased': 'error',
  'exclusive-max-increased': 'info',
  'exclusive-max-set': 'error',
  'exclusive-min-increased': 'error',
  'exclusive-min-decreased': 'info',
  'exclusive-min-set': 'error',
  'max-length-decreased': 'error',
  'max-length-increased': 'info',
  'max-length-set': 'error',
  'min-length-increased': 'error',
  'min-length-decreased': 'info',
  'max-items-decreased': 'error',
  'max-items-increased': 'info',
  'min-items-increased': 'error',
  'min-items-decreased': 'info',
  'min-items-set': 'error',
  'pattern-added': 'error',
  'pattern-changed': 'warning',
  'pattern-removed': 'info',
  'enum-value-removed': 'error',
  'enum-value-added': 'info',
  'became-enum': 'error',
};

/** What a client receives: a value it did not expect breaks it, fewer values do not. */
const RESPONSE_SCHEMA_KINDS: Record<string, Level> = {
  'type-changed': 'error',
  'became-nullable': 'error',
  'max-increased': 'error',
  'min-decreased': 'error',
  'exclusive-max-increased': 'error',
  'exclusive-min-decreased': 'error',
  'max-length-increased': 'error',
  'min-length-decreased': 'error',
  'max-items-increased': 'error',
  'min-items-decreased': 'error',
  'enum-value-added': 'warning',
  'enum-value-removed': 'info',
};

function schemaRules(): Record<string, Rule> {
  const rules: Record<string, Rule> = {};
  for (const subject of REQUEST_SUBJECTS)
    for (const [kind, level] of Object.entries(REQUEST_SCHEMA_KINDS)) rules[`${subject}-${kind}`] = oasdiff(level);
  for (const subject of RESPONSE_SUBJECTS)
    for (const [kind, level] of Object.entries(RESPONSE_SCHEMA_KINDS)) rules[`${subject}-${kind}`] = oasdiff(level);
  return rules;
}

export const RULES: Record<string, Rule> = {
  ...schemaRules(),
  // Endpoints.
  'api-path-removed-without-deprecation': oasdiff('error'),
  'api-path-removed-with-deprecation': oasdiff('info'),
  'api-removed-without-deprecation': oasdiff('error'),
  'api-removed-with-deprecation': oasdiff('info'),
  'endpoint-added': oasdiff('info'),
  'api-operation-id-removed': oasdiff('info'),
  // Parameters.
  'new-required-request-parameter': oasdiff('error'),
  'new-request-path-parameter': oasdiff('error'),
  'new-optional-request-parameter': oasdiff('info'),
  'request-parameter-became-required': oasdiff('error'),
  'request-parameter-became-optional': oasdiff('info'),
  'request-parameter-removed': oasdiff('warning'),
  'request-parameter-default-value-changed': project(
    'error',
    'a client that omits the parameter gets another behaviour; oasdiff classed it an error, its newest rules say info',
  ),
  'request-parameter-default-value-added': project('error', 'as a changed default'),
  'request-parameter-default-value-removed': project('error', 'as a changed default'),
  // Request bodies.
  'request-body-became-required': oasdiff('error'),
  'request-body-became-optional': oasdiff('info'),
  'request-body-added-required': oasdiff('error'),
  'request-body-added-optional': oasdiff('info'),
  'request-body-removed': oasdiff('error'),
  'request-body-media-type-removed': oasdiff('error'),
  'request-body-media-type-added': oasdiff('info'),
  'request-body-additional-properties-refused': project(
    'error',
    'a body with a field the schema does not name is now refused (oasdiff has no rule)',
  ),
  'request-property-additional-properties-refused': project('error', 'as for the body, one level down'),
  'request-body-one-of-removed': project('error', 'a shape the client sends is no longer accepted'),
  'request-body-one-of-added': project('info', 'one more shape accepted'),
  'request-property-one-of-removed': project('error', 'a shape the client sends is no longer accepted'),
  'request-property-one-of-added': project('info', 'one more shape accepted'),
  'new-required-request-property': oasdiff('error'),
  'new-optional-request-property': oasdiff('info'),
  'request-property-became-required': oasdiff('error'),
  'request-property-became-optional': oasdiff('info'),
  'request-property-removed': oasdiff('warning'),
  // Responses.
  'response-success-status-removed': oasdiff('error'),
  'response-non-success-status-removed': oasdiff('info'),
  'response-success-status-added': oasdiff('info'),
  'response-non-success-status-added': oasdiff('info'),
  'response-media-type-removed': oasdiff('error'),
  'response-media-type-added': oasdiff('info'),
  'response-body-one-of-added': project('error', 'a shape the client has never seen'),
  'response-body-one-of-removed': project('info', 'one shape fewer'),
  'response-property-one-of-added': project('error', 'a shape the client has never seen'),
  'response-property-one-of-removed': project('info', 'one shape fewer'),
  'response-required-property-removed': oasdiff('error'),
  'response-optional-property-removed': oasdiff('info'),
  'response-property-became-optional': oasdiff('error'),
  'response-property-became-required': oasdiff('info'),
  'response-required-property-added': oasdiff('info'),
  'response-optional-property-added': oasdiff('info'),
  // Security.
  'api-security-removed': oasdiff('error'),
  'api-security-added': oasdiff('info'),
  'api-security-scope-added': oasdiff('error'),
  'api-security-scope-removed': oasdiff('info'),
  'api-security-now-required': project(
    'error',
    'an operation that needed no credentials now needs some; oasdiff reports it as api-security-added, info',
  ),
  // The rest.
  'documentation-changed': project('info', 'descriptions, summaries, examples: readers of the docs see them'),
};

export type RuleId = keyof typeof RULES;

export const LEVELS: readonly Level[] = ['error', 'warning', 'info'];
