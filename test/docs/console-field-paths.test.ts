// The console puts each error of a 400 under the field it names: the path the API writes for each
// parameter of the spec (a header's in lower case, as the validator names it) names that parameter
// and no other, and a path under /body names none.
import { describe, expect, it } from 'vitest';
import { fieldOf, namesParameter } from '../../scripts/docs/console/page/field-paths.js';
import { specOperations } from '../../server/spec.js';
import { spec } from '../support/spec.js';

const PREFIXES = { path: 'path', query: 'query', header: 'headers' } as const;
const parameters = specOperations(spec).flatMap(({ parameters }) => parameters);
const errorPath = (p: { in: string; name: string }) =>
  `/${PREFIXES[p.in as keyof typeof PREFIXES]}/${p.in === 'header' ? p.name.toLowerCase() : p.name}`;

describe("the field an error's path names", () => {
  it('has parameters of every location the API names to check', () => {
    expect(new Set(parameters.map((p) => p.in))).toEqual(new Set(Object.keys(PREFIXES)));
  });

  it.each(parameters.map((p) => [`${p.in} ${p.name}`, p] as const))(
    '%s: its own path, no other',
    (_label, parameter) => {
      for (const other of parameters) {
        const same = other.in === parameter.in && other.name.toLowerCase() === parameter.name.toLowerCase();
        expect(
          namesParameter(errorPath(parameter), other),
          `${errorPath(parameter)} and ${other.in} ${other.name}`,
        ).toBe(same);
      }
    },
  );

  it('names the body for /body and below it, and no parameter', () => {
    for (const path of ['/body', '/body/config/url']) {
      expect(fieldOf(path)).toEqual({ in: 'body' });
      expect(parameters.filter((p) => namesParameter(path, p))).toEqual([]);
    }
    expect(fieldOf('/bodyguard')).toBeUndefined();
  });
});
