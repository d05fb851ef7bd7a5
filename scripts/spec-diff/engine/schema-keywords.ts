// The keywords of one schema compared, beyond its type and its properties: bounds, pattern, enum,
// default and const, composition (allOf/anyOf/oneOf), discriminator, and the keywords oasdiff
// checks for presence (if/then/else, contains, prefixItems, propertyNames, ...).
import { isObject } from '../../../server/spec.js';
import { compareComposition } from './schema-composition.js';
import { inside, type Report, reporterAt, type SchemaComparison } from './schema-place.js';
import type { Schema } from './schema-types.js';

// Each bound: its keyword, the name of its rules, and whether a larger value admits more.
const BOUNDS: [keyword: string, rule: string, largerAdmitsMore: boolean][] = [
  ['maximum', 'max', true],
  ['exclusiveMaximum', 'exclusive-max', true],
  ['maxLength', 'max-length', true],
  ['maxItems', 'max-items', true],
  ['maxProperties', 'max-properties', true],
  ['maxContains', 'max-contains', true],
  ['minimum', 'min', false],
  ['exclusiveMinimum', 'exclusive-min', false],
  ['minLength', 'min-length', false],
  ['minItems', 'min-items', false],
  ['minProperties', 'min-properties', false],
  ['minContains', 'min-contains', false],
];

// Sub-schemas oasdiff reports added or removed, by keyword; present on both sides, they are compared.
const PRESENCE: [keyword: string, rule: string][] = [
  ['if', 'if'],
  ['then', 'then'],
  ['else', 'else'],
  ['contains', 'contains'],
  ['prefixItems', 'prefix-items'],
  ['propertyNames', 'property-names'],
  ['unevaluatedItems', 'unevaluated-items'],
  ['unevaluatedProperties', 'unevaluated-properties'],
  ['contentSchema', 'content-schema'],
  ['not', 'not'],
];

const COMPOSITION: [keyword: string, rule: string][] = [
  ['allOf', 'all-of'],
  ['anyOf', 'any-of'],
  ['oneOf', 'one-of'],
];

const json = (value: unknown) => JSON.stringify(value);
const keysOf = (value: unknown) => (isObject(value) ? Object.keys(value) : []);

export function compareKeywords(b: Schema, a: Schema, at: SchemaComparison, withComposition: boolean): void {
  const report = reporterAt(at);
  const request = at.place.side === 'request';

  for (const [keyword, rule, largerAdmitsMore] of BOUNDS) {
    const [was, is] = [b[keyword], a[keyword]].map((v) => (typeof v === 'number' ? v : undefined));
    if (was === is) continue;
    const [tighter, looser] = largerAdmitsMore ? ['decreased', 'increased'] : ['increased', 'decreased'];
    const what = `${keyword} ${was ?? 'none'} -> ${is ?? 'none'}`;
    // oasdiff compares a bound present on both sides; a bound set on a request or removed from a
    // response has a rule of its own (oasdiff's, or the project's where oasdiff has none).
    if (was === undefined) {
      if (request) report(`${rule}-set`, what);
    } else if (is === undefined) {
      if (!request) report(`${rule}-unset`, what);
    } else report(`${rule}-${is > was === largerAdmitsMore ? looser : tighter}`, what);
  }

  // An empty pattern is no pattern, as oasdiff reads it.
  const [patternWas, patternIs] = [b.pattern, a.pattern].map((p) => (p === '' ? undefined : p));
  if (patternIs !== patternWas) {
    if (patternWas === undefined) report('pattern-added', `pattern added: ${String(patternIs)}`);
    else if (patternIs === undefined) report('pattern-removed', `pattern removed: ${String(patternWas)}`);
    else if (patternIs === '.*') report('pattern-generalized', `pattern ${String(patternWas)} -> .*`);
    else report('pattern-changed', `pattern ${String(patternWas)} -> ${String(patternIs)}`);
  }

  compareValues(b, a, report);

  if (!b.uniqueItems && a.uniqueItems) report('unique-items-added', 'items must now be unique');
  if (b.uniqueItems && !a.uniqueItems) report('unique-items-removed', 'items need no longer be unique');
  if (request && isObject(b) && b.additionalProperties !== false && a.additionalProperties === false)
    report('additional-properties-refused', 'unknown properties now refused');
  for (const [keyword, rule] of [
    ['contentMediaType', 'content-media-type-changed'],
    ['contentEncoding', 'content-encoding-changed'],
  ] as const)
    if (b[keyword] !== a[keyword]) report(rule, `${keyword} ${String(b[keyword])} -> ${String(a[keyword])}`);

  compareDiscriminators(b.discriminator, a.discriminator, report);

  // Present on both sides, a sub-schema (then, not, propertyNames, ...) is read one level deeper, as
  // oasdiff reads a property's schema.
  for (const [keyword, rule] of PRESENCE) {
    const [was, is] = [b[keyword], a[keyword]];
    if (json(was) === json(is)) continue;
    if (was === undefined) report(`${rule}-added`, `${keyword} added`);
    else if (is === undefined) report(`${rule}-removed`, `${keyword} removed`);
    else if (isObject(was) && isObject(is)) at.compare(was, is, inside(at, `${at.where}(${keyword})`));
  }

  compareNamedSchemas(b.patternProperties, a.patternProperties, at, 'pattern-property');
  compareNamedSchemas(b.dependentSchemas, a.dependentSchemas, at, 'dependent-schema');
  const [requiredBefore, requiredAfter] = [b.dependentRequired, a.dependentRequired];
  for (const name of new Set([...keysOf(requiredBefore), ...keysOf(requiredAfter)])) {
    const [was, is] = [(requiredBefore as Schema | undefined)?.[name], (requiredAfter as Schema | undefined)?.[name]];
    if (json(was) === json(is)) continue;
    const change = was === undefined ? 'added' : is === undefined ? 'removed' : 'changed';
    report(`dependent-required-${change}`, `dependentRequired ${name} ${change}`);
  }

  if (withComposition) for (const [keyword, rule] of COMPOSITION) compareComposition(b, a, at, keyword, rule);
}

function compareValues(b: Schema, a: Schema, report: Report): void {
  if (Array.isArray(b.enum) && Array.isArray(a.enum)) {
    const [was, is] = [b.enum.map(json), a.enum.map(json)];
    for (const value of was) if (!is.includes(value)) report('enum-value-removed', `enum value ${value} removed`);
    for (const value of is) if (!was.includes(value)) report('enum-value-added', `enum value ${value} added`);
  } else if (!Array.isArray(b.enum) && Array.isArray(a.enum)) report('became-enum', 'restricted to an enum');
  const [extensibleBefore, extensibleAfter] = [b['x-extensible-enum'], a['x-extensible-enum']];
  if (Array.isArray(extensibleBefore) && Array.isArray(extensibleAfter))
    for (const value of extensibleBefore.map(json))
      if (!extensibleAfter.map(json).includes(value))
        report('x-extensible-enum-value-removed', `x-extensible-enum value ${value} removed`);
  for (const [keyword, rule] of [
    ['default', 'default-value'],
    ['const', 'const'],
  ] as const) {
    if (json(b[keyword]) === json(a[keyword])) continue;
    const change = b[keyword] === undefined ? 'added' : a[keyword] === undefined ? 'removed' : 'changed';
    report(`${rule}-${change}`, `${keyword} ${json(b[keyword]) ?? 'none'} -> ${json(a[keyword]) ?? 'none'}`);
  }
}

function compareDiscriminators(was: unknown, is: unknown, report: Report): void {
  if (json(was) === json(is)) return;
  if (!isObject(was) || !isObject(is)) {
    report(
      `discriminator-${isObject(is) ? 'added' : 'removed'}`,
      `discriminator ${isObject(is) ? 'added' : 'removed'}`,
    );
    return;
  }
  if (was.propertyName !== is.propertyName)
    report('discriminator-property-name-changed', `${String(was.propertyName)} -> ${String(is.propertyName)}`);
  const [mappingBefore, mappingAfter] = [(was.mapping ?? {}) as Schema, (is.mapping ?? {}) as Schema];
  for (const key of Object.keys(mappingAfter))
    if (!(key in mappingBefore)) report('discriminator-mapping-added', `mapping ${key} added`);
  for (const key of Object.keys(mappingBefore)) {
    if (!(key in mappingAfter)) report('discriminator-mapping-deleted', `mapping ${key} deleted`);
    else if (json(mappingBefore[key]) !== json(mappingAfter[key]))
      report('discriminator-mapping-changed', `mapping ${key} changed`);
  }
}

function compareNamedSchemas(before: unknown, after: unknown, at: SchemaComparison, rule: string): void {
  const report = reporterAt(at);
  for (const name of keysOf(after)) if (!keysOf(before).includes(name)) report(`${rule}-added`, `${name} added`);
  for (const name of keysOf(before)) {
    if (!keysOf(after).includes(name)) report(`${rule}-removed`, `${name} removed`);
    else
      at.compare(
        (before as Record<string, Schema>)[name],
        (after as Record<string, Schema>)[name],
        inside(at, `${at.where}(${name})`),
      );
  }
}
