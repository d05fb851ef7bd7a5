// What the battery of oasdiff's own fixtures is made of: pairs of small OpenAPI 3.0 documents, each
// written here after the pair one of oasdiff's checker tests loads (its data/checker files), with
// the rule ids that test asserts. A test that runs a single check of oasdiff is graded by those ids
// alone (the engine may rightly report more of the same pair); a test that runs all of oasdiff's
// checks also holds the gate to it: a pair with a breaking change must fail it, any other pass it.
import { OASDIFF_RULES } from '../engine/oasdiff-rules.js';
import type { Level } from '../engine/rules.js';

// biome-ignore lint/suspicious/noExplicitAny: documents built freely, many levels deep
export type Json = Record<string, any>;

export interface FixturePair {
  /** The oasdiff test it follows (`<test file> <test name>`), then what the pair changes. */
  title: string;
  before: Json;
  after: Json;
  /** The rule ids the test asserts; each must be reported at oasdiff's level (or the override's). */
  ids: string[];
  /** `all`: the test runs every check, and the gate must agree with it; `single`: one check. */
  checks: 'single' | 'all';
  /** Ids the test asserts oasdiff does not report for the pair. */
  absent?: string[];
  /** An id the project reports louder than oasdiff on purpose, at its level and saying so. */
  overrides?: Record<string, Level>;
}

const FROM_OASDIFF: Record<string, Level> = { ERR: 'error', WARN: 'warning', INFO: 'info' };

export const oasdiffLevel = (id: string): Level | undefined => FROM_OASDIFF[OASDIFF_RULES[id] ?? ''];

/** The level a pair expects an id at: the override's, or oasdiff's. */
export const levelOf = (pair: FixturePair, id: string): Level | undefined => pair.overrides?.[id] ?? oasdiffLevel(id);

/** Whether oasdiff counts the pair breaking: an id it asserts is an error. */
export const isBreaking = (pair: FixturePair) => pair.ids.some((id) => oasdiffLevel(id) === 'error');

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A 3.0 document of the given paths and component schemas. */
export function doc(paths: Json, schemas: Json = {}, extra: Json = {}): Json {
  return { openapi: '3.0.3', info: { title: 'Fixture', version: '1.0.0' }, paths, components: { schemas }, ...extra };
}

const ok = (schema?: Json) => ({
  '200': { description: 'OK', ...(schema && { content: { 'application/json': { schema } } }) },
});

/** POST /orders taking a JSON body of `schema`. */
export const postBody = (schema: Json, operation: Json = {}) => ({
  '/orders': {
    post: {
      operationId: 'createOrder',
      requestBody: { content: { 'application/json': { schema } } },
      responses: ok(),
      ...operation,
    },
  },
});

/** GET /orders answering 200 with a JSON body of `schema`. */
export const getBody = (schema: Json, operation: Json = {}) => ({
  '/orders': { get: { operationId: 'listOrders', responses: ok(schema), ...operation } },
});

/** GET on `path` with the given parameters. */
export const withParameters = (parameters: Json[], path = '/orders', operation: Json = {}) => ({
  [path]: { get: { operationId: 'listOrders', parameters, responses: ok(), ...operation } },
});

export const objectOf = (properties: Json, more: Json = {}) => ({ type: 'object', properties, ...more });
