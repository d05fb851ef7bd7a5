// What the battery of edits is made of: an edit, its class from oasdiff's levels, and the places of
// this project's openapi.yaml the edits change.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../../server/project-root.js';
import { HTTP_METHODS, parseSpecYaml } from '../../../server/spec.js';
import { OASDIFF_RULES } from '../engine/oasdiff-rules.js';
import type { Level } from '../engine/rules.js';

// Documents edited in place, many levels deep: typing every level would say nothing more.
// biome-ignore lint/suspicious/noExplicitAny: documents edited freely by the edits below
export type Json = Record<string, any>;

export interface BatteryEdit {
  name: string;
  /** The edit's class: the highest level it must be reported at. */
  level: Level;
  /** Rule ids that must be among the findings, each at its level (oasdiff's, or the override's). */
  ids: string[];
  /** The project reports this edit louder than oasdiff on purpose: the level and the report say so. */
  override?: Level;
  /** Applied to both documents first, when the edit needs something the spec does not have. */
  setup?: (spec: Json) => void;
  edit: (spec: Json) => void;
}

export function baseSpec(): Json {
  return parseSpecYaml(readFileSync(join(projectRoot, 'openapi.yaml'), 'utf8')) as Json;
}

const FROM_OASDIFF: Record<string, Level> = { ERR: 'error', WARN: 'warning', INFO: 'info' };
const RANK: Level[] = ['error', 'warning', 'info'];

/** The level oasdiff gives a rule id; a project id's level is given with its edit. */
export const oasdiffLevel = (id: string): Level | undefined => FROM_OASDIFF[OASDIFF_RULES[id] ?? ''];

/** An edit whose class is the highest oasdiff level among its ids. */
export function edit(
  name: string,
  ids: string[],
  change: (spec: Json) => void,
  setup?: (spec: Json) => void,
): BatteryEdit {
  const levels = ids.map((id) => oasdiffLevel(id) ?? 'info');
  const level = RANK.find((l) => levels.includes(l)) ?? 'info';
  return { name, level, ids, edit: change, ...(setup && { setup }) };
}

/** An edit the project classes itself: a project rule, or an override of oasdiff's level. */
export function projectEdit(
  name: string,
  level: Level,
  ids: string[],
  change: (spec: Json) => void,
  options: { setup?: (spec: Json) => void; override?: boolean } = {},
): BatteryEdit {
  return {
    name,
    level,
    ids,
    edit: change,
    ...(options.setup && { setup: options.setup }),
    ...(options.override && { override: level }),
  };
}

export const KEY = '/keys/{hash}';
export const DESTINATION = '/observability/destinations/{id}';
export const VERSIONS = '/presets/{slug}/versions';
export const getKey = (s: Json) => s.paths[KEY].get;
/** Every operation of every path of the document. */
export const operations = (s: Json): Json[] =>
  Object.values<Json>(s.paths).flatMap((item) =>
    HTTP_METHODS.filter((method) => method in item).map((method) => item[method]),
  );
export const patch = (s: Json) => s.paths[DESTINATION].patch;
export const list = (s: Json) => s.paths[VERSIONS].get;
export const param = (operation: Json, name: string) => operation.parameters.find((p: Json) => p.name === name);
export const schemas = (s: Json) => s.components.schemas;
export const SUNSET_LATER = '2999-12-31';
export const addPost = (s: Json) => {
  s.paths[KEY].post = { operationId: 'touchKey', responses: { '204': { description: 'touched' } } };
};

export type Change = (target: Json) => void;

/** Edits of one schema: `setup` prepares it on both sides, `prepare` is the family's own. */
export type Family = (name: string, ids: string[], change: Change, setup?: Change) => BatteryEdit;

export function family(target: (s: Json) => Json, prepare?: (s: Json) => void) {
  return (name: string, ids: string[], change: Change, setup?: Change): BatteryEdit =>
    edit(
      name,
      ids,
      (s) => change(target(s)),
      prepare || setup
        ? (s) => {
            prepare?.(s);
            setup?.(target(s));
          }
        : undefined,
    );
}

// A schema keyword (if/then/else) that linters take for a promise's method when written as a property.
const THEN = 'then';

/**
 * What oasdiff checks of an object schema's structure, on a subject (`request-body`, ...): `names`
 * are three of its properties. The level of each edit comes from oasdiff's rule for the subject.
 */
export function structureEdits(
  subject: string,
  on: Family,
  [first, second, third]: [string, string, string],
): BatteryEdit[] {
  const at = (id: string) => `${subject}-${id}`;
  const alternatives = (keyword: string) => (x: Json) => {
    x[keyword] = [{ required: [first] }, { required: [second] }];
  };
  const discriminated = (x: Json) => {
    x.discriminator = {
      propertyName: 'kind',
      mapping: { a: '#/components/schemas/Uuid', b: '#/components/schemas/Timestamp' },
    };
  };
  return [
    on(`${subject}: allOf added`, [at('all-of-added')], (x) => (x.allOf = [{ required: [first] }])),
    on(
      `${subject}: allOf removed`,
      [at('all-of-removed')],
      (x) => delete x.allOf,
      (x) => (x.allOf = [{ required: [first] }]),
    ),
    on(
      `${subject}: allOf of annotations added`,
      [at('all-of-added-annotation-only')],
      (x) => (x.allOf = [{ deprecated: false }]),
    ),
    on(
      `${subject}: allOf of annotations removed`,
      [at('all-of-removed-annotation-only')],
      (x) => delete x.allOf,
      (x) => (x.allOf = [{ deprecated: false }]),
    ),
    on(
      `${subject}: anyOf alternative added`,
      [at('any-of-added')],
      (x) => x.anyOf.push({ required: [third] }),
      alternatives('anyOf'),
    ),
    on(`${subject}: anyOf alternative removed`, [at('any-of-removed')], (x) => x.anyOf.pop(), alternatives('anyOf')),
    on(
      `${subject}: oneOf alternative added`,
      [at('one-of-added')],
      (x) => x.oneOf.push({ required: [third] }),
      alternatives('oneOf'),
    ),
    on(`${subject}: oneOf alternative removed`, [at('one-of-removed')], (x) => x.oneOf.pop(), alternatives('oneOf')),
    on(`${subject}: discriminator added`, [at('discriminator-added')], discriminated),
    on(
      `${subject}: discriminator removed`,
      [at('discriminator-removed')],
      (x) => delete x.discriminator,
      discriminated,
    ),
    on(
      `${subject}: discriminator property renamed`,
      [at('discriminator-property-name-changed')],
      (x) => (x.discriminator.propertyName = 'type'),
      discriminated,
    ),
    on(
      `${subject}: discriminator mapping added`,
      [at('discriminator-mapping-added')],
      (x) => (x.discriminator.mapping.c = '#/components/schemas/Uuid'),
      discriminated,
    ),
    on(
      `${subject}: discriminator mapping deleted`,
      [at('discriminator-mapping-deleted')],
      (x) => delete x.discriminator.mapping.b,
      discriminated,
    ),
    on(
      `${subject}: discriminator mapping changed`,
      [at('discriminator-mapping-changed')],
      (x) => (x.discriminator.mapping.b = '#/components/schemas/Uuid'),
      discriminated,
    ),
    on(`${subject}: if added`, [at('if-added')], (x) => (x.if = { required: [second] })),
    on(
      `${subject}: if removed`,
      [at('if-removed')],
      (x) => delete x.if,
      (x) => (x.if = { required: [second] }),
    ),
    on(`${subject}: then added`, [at('then-added')], (x) => (x[THEN] = { required: [first] })),
    on(
      `${subject}: then removed`,
      [at('then-removed')],
      (x) => delete x[THEN],
      (x) => (x[THEN] = { required: [first] }),
    ),
    on(`${subject}: else added`, [at('else-added')], (x) => (x.else = { required: [first] })),
    on(
      `${subject}: else removed`,
      [at('else-removed')],
      (x) => delete x.else,
      (x) => (x.else = { required: [first] }),
    ),
    on(
      `${subject}: dependentRequired added`,
      [at('dependent-required-added')],
      (x) => (x.dependentRequired = { [second]: [first] }),
    ),
    on(
      `${subject}: dependentRequired removed`,
      [at('dependent-required-removed')],
      (x) => delete x.dependentRequired,
      (x) => (x.dependentRequired = { [second]: [first] }),
    ),
    on(
      `${subject}: dependentRequired changed`,
      [at('dependent-required-changed')],
      (x) => (x.dependentRequired[second] = [third]),
      (x) => (x.dependentRequired = { [second]: [first] }),
    ),
    on(
      `${subject}: dependentSchemas added`,
      [at('dependent-schema-added')],
      (x) => (x.dependentSchemas = { [second]: { required: [first] } }),
    ),
    on(
      `${subject}: dependentSchemas removed`,
      [at('dependent-schema-removed')],
      (x) => delete x.dependentSchemas,
      (x) => (x.dependentSchemas = { [second]: { required: [first] } }),
    ),
    on(
      `${subject}: patternProperties added`,
      [at('pattern-property-added')],
      (x) => (x.patternProperties = { '^x-': { type: 'string' } }),
    ),
    on(
      `${subject}: patternProperties removed`,
      [at('pattern-property-removed')],
      (x) => delete x.patternProperties,
      (x) => (x.patternProperties = { '^x-': { type: 'string' } }),
    ),
    on(
      `${subject}: propertyNames added`,
      [at('property-names-added')],
      (x) => (x.propertyNames = { pattern: '^[a-z_]+$' }),
    ),
    on(
      `${subject}: propertyNames removed`,
      [at('property-names-removed')],
      (x) => delete x.propertyNames,
      (x) => (x.propertyNames = { pattern: '^[a-z_]+$' }),
    ),
    on(
      `${subject}: unevaluatedProperties added`,
      [at('unevaluated-properties-added')],
      (x) => (x.unevaluatedProperties = false),
    ),
    on(
      `${subject}: unevaluatedProperties removed`,
      [at('unevaluated-properties-removed')],
      (x) => delete x.unevaluatedProperties,
      (x) => (x.unevaluatedProperties = false),
    ),
    on(`${subject}: unevaluatedItems refused`, [at('unevaluated-items-added')], (x) => (x.unevaluatedItems = false)),
  ];
}
