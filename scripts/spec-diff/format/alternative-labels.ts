// What the alternatives of a oneOf or anyOf are called in a report: by the value of the property
// that tells them apart, their title, their type, or their position.
import { isObject } from '../../../server/spec.js';
import { Walker } from './schema-walker.js';

/** One step of the path to a change: how `locate` walks a schema to it. */
export type Step =
  | { kind: 'property'; name: string }
  | { kind: 'items' }
  /** A keyword holding a schema (`not`, `additionalProperties`) or a named one (a pattern property). */
  | { kind: 'keyword'; name: string }
  /** `matched`: both documents have these alternatives; otherwise one side is a single schema (a restructure). */
  | { kind: 'alternative'; index: number; label: string; matched: boolean };

type Json = Record<string, unknown>;

/** `the second rule alternative` for the second (counted from 1). */
export const ordinalLabel = (position: number, noun: string | undefined) =>
  `the ${ORDINALS[position - 1] ?? `${position}th`} ${noun ? `${noun} ` : ''}alternative`;

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];

function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  if (name.endsWith('s') && !name.endsWith('ss')) return name.slice(0, -1);
  return name;
}

const valuesOf = (schema: unknown): unknown[] | undefined => {
  if (!isObject(schema)) return undefined;
  if ('const' in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
};

/** The values of the property that tells the alternatives apart: one that has a const or an enum in each. */
function discriminator(
  alternatives: Json[],
  document: Json,
): ((alternative: Json) => unknown[] | undefined) | undefined {
  const propertyOf = (alternative: Json, name: string) => {
    return valuesOf(new Walker(document, (alternative.properties as Json | undefined)?.[name]).node);
  };
  const first = alternatives[0]?.properties;
  if (!isObject(first)) return undefined;
  // A property with the same values everywhere (a shared enum of fields) tells nothing apart.
  const name = Object.keys(first).find((key) => {
    const values = alternatives.map((a) => propertyOf(a, key));
    return values.every((v) => v !== undefined) && new Set(values.map((v) => JSON.stringify(v))).size === values.length;
  });
  return name === undefined ? undefined : (alternative) => propertyOf(alternative, name);
}

/** `the \`regex\` rule`, `the numeric comparison rule`, `as a number`, `the second alternative`. */
export function alternativeLabels(alternatives: Json[], document: Json, noun: string | undefined): string[] {
  const discriminating = discriminator(alternatives, document);
  const typeOf = (a: Json) => (typeof a.type === 'string' ? a.type : undefined);
  const distinctTypes = new Set(alternatives.map(typeOf)).size === alternatives.length;
  return alternatives.map((alternative, index) => {
    const values = discriminating?.(alternative);
    const what = noun ?? 'alternative';
    if (values?.length === 1) return `the \`${String(values[0])}\` ${what}`;
    if (typeof alternative.title === 'string') return `the ${alternative.title} ${what}`;
    if (values && values.length > 1 && values.length <= 4)
      return `the ${values.map((v) => `\`${String(v)}\``).join('/')} ${what}`;
    const type = typeOf(alternative);
    if (distinctTypes && type) return `as ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
    return ordinalLabel(index + 1, noun);
  });
}

/** What the alternatives at a step are called: the singular of the array holding them, or the property. */
export function nounAt(steps: Step[]): string | undefined {
  const [last, previous] = [steps.at(-1), steps.at(-2)];
  if (last?.kind === 'items' && previous?.kind === 'property') return singular(previous.name);
  if (last?.kind === 'property') return last.name;
  return undefined;
}
