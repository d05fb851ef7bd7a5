// Ajv 8.20.0, patched at install from patches/ (notes/patched-dependencies.md): with allErrors,
// the errors of a failing $ref (or of a function keyword) were added to those collected so far with
// concat, a copy of them all each time, quadratic in the number of failing items; the patch appends
// them in place. Drop the patch, and this test's check of the generated code, once a release has it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const installed = (JSON.parse(readFileSync(require.resolve('ajv/package.json'), 'utf8')) as { version: string })
  .version;

const ruleList = {
  type: 'array',
  items: { $ref: '#/$defs/rule' },
  $defs: {
    rule: {
      type: 'object',
      required: ['field', 'operator'],
      properties: { field: { type: 'string' }, operator: { enum: ['gt', 'lt'] } },
    },
  },
};

describe('the Ajv patch', () => {
  it('is for the installed version', () => {
    expect(installed).toBe('8.20.0');
  });

  it('appends the errors of a failing $ref in place: the generated code copies no error list', () => {
    // Not inlined: the rule is a function of its own, whose errors the list's code collects.
    const validate = new Ajv2020({ allErrors: true, inlineRefs: false, code: { source: true } }).compile(ruleList);
    const source = validate.source?.validateCode ?? '';
    expect(source).toMatch(/\.errors\b/);
    expect(source).not.toMatch(/vErrors\.concat\(/);
    expect(source).toMatch(/for\s*\(const err\d* of [^)]*\.errors\)\{vErrors\.push\(err\d*\)/);
  });

  it('reports every error of every item, in order, as before', () => {
    const validate = new Ajv2020({ allErrors: true, inlineRefs: false }).compile(ruleList);
    const items = [{}, { field: 'model', operator: 'gt' }, { field: 1 }, { operator: 'eq' }];
    expect(validate(items)).toBe(false);
    expect(validate.errors?.map((e) => `${e.instancePath} ${e.keyword}`)).toEqual([
      '/0 required',
      '/0 required',
      '/2 required',
      '/2/field type',
      '/3 required',
      '/3/operator enum',
    ]);
  });

  it('keeps errors that a function keyword returns, appended after those collected before', () => {
    const ajv = new Ajv2020({ allErrors: true });
    ajv.addKeyword({
      keyword: 'failsTwice',
      validate: Object.assign(
        function failsTwice(this: unknown) {
          const self = failsTwice as unknown as { errors: object[] };
          self.errors = [
            { keyword: 'failsTwice', message: 'first' },
            { keyword: 'failsTwice', message: 'second' },
          ];
          return false;
        },
        { errors: [] as object[] },
      ),
    });
    const validate = ajv.compile({ type: 'array', items: { type: 'string', failsTwice: true } });
    expect(validate([1, 'a'])).toBe(false);
    expect(validate.errors?.map((e) => `${e.instancePath} ${e.keyword} ${e.message}`)).toEqual([
      '/0 type must be string',
      '/0 failsTwice first',
      '/0 failsTwice second',
      '/1 failsTwice first',
      '/1 failsTwice second',
    ]);
  });

  it('takes a failing $ref item as long as any other: 20,000 of them give 40,000 errors', () => {
    const validate = new Ajv2020({ allErrors: true, inlineRefs: false }).compile(ruleList);
    validate(Array.from({ length: 20_000 }, () => ({})));
    expect(validate.errors).toHaveLength(40_000);
  });
});
