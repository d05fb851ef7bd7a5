// Ajv 8.20.0, patched at install from patches/ (notes/patched-dependencies.md):
// - 001: with allErrors, the errors of a failing $ref (or of a function keyword) were added to those
//   collected so far with concat, a copy of them all each time, quadratic in the number of failing
//   items; the patch appends them in place;
// - 002: with coerceTypes, a string whose number is past the range of a double ('1e999', 400
//   digits, 'Infinity') was coerced to Infinity and passed `type: number` and `type: integer`, which
//   a value already Infinity does not (strictNumbers), and then every number keyword (maximum...);
//   the patch coerces a string only to a finite number (ajv-validator/ajv#2661).
// Drop a patch, and this test's checks of it, once a release has its fix.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
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

  it('is one of the two patches of Ajv, applied in order at install', () => {
    const patches = readdirSync(fileURLToPath(new URL('../../patches', import.meta.url))).filter(
      (name) => name.startsWith('ajv+') && name.endsWith('.patch'),
    );
    expect(patches.sort()).toEqual([
      `ajv+${installed}+001+linear-error-lists.patch`,
      `ajv+${installed}+002+finite-number-coercion.patch`,
    ]);
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

describe('the Ajv patch of string coercion (002)', () => {
  const beyondDouble = [
    `1${'0'.repeat(400)}`,
    `-${'9'.repeat(400)}`,
    '9'.repeat(309),
    '1e999',
    '-1e999',
    'Infinity',
    '-Infinity',
  ];
  const coercing = (schema: object, options: object = {}) =>
    new Ajv2020({ coerceTypes: true, allErrors: true, ...options }).compile({
      type: 'object',
      properties: { value: schema },
    });
  const coerced = (validate: (data: unknown) => boolean, value: unknown) => {
    const data = { value };
    return { valid: validate(data), value: data.value, errors: (validate as { errors?: unknown }).errors };
  };

  it.each(['integer', 'number'])(
    'refuses, as %s, a string past the range of a double, and leaves it a string',
    (type) => {
      const validate = coercing({ type });
      for (const value of beyondDouble) {
        expect(coerced(validate, value), value.slice(0, 12)).toEqual({
          valid: false,
          value,
          errors: [expect.objectContaining({ instancePath: '/value', keyword: 'type' })],
        });
      }
    },
  );

  it('refuses them whatever the bounds: maximum and minimum no longer see Infinity', () => {
    const validate = coercing({ type: ['integer', 'null'], minimum: 0, maximum: 100 });
    for (const value of beyondDouble) expect(coerced(validate, value).valid, value.slice(0, 12)).toBe(false);
  });

  it('still coerces the strings of finite numbers: 1e300 to a number, 42 to an integer', () => {
    expect(coerced(coercing({ type: 'number' }), '1e300')).toMatchObject({ valid: true, value: 1e300 });
    expect(coerced(coercing({ type: 'number' }), '-2.5')).toMatchObject({ valid: true, value: -2.5 });
    expect(coerced(coercing({ type: 'integer' }), '42')).toMatchObject({ valid: true, value: 42 });
    expect(coerced(coercing({ type: 'integer' }), `${Number.MAX_VALUE}`)).toMatchObject({
      valid: true,
      value: Number.MAX_VALUE,
    });
    expect(coerced(coercing({ type: 'integer' }), '2.5')).toMatchObject({ valid: false, value: '2.5' });
  });

  it('coerces the one item of an array alike (coerceTypes: array)', () => {
    const validate = coercing({ type: 'integer' }, { coerceTypes: 'array' });
    expect(coerced(validate, ['42'])).toMatchObject({ valid: true, value: 42 });
    expect(coerced(validate, ['1e999'])).toMatchObject({ valid: false });
  });

  it('keeps coercing them to Infinity with strictNumbers off, as Ajv takes Infinity then', () => {
    const validate = coercing({ type: 'number' }, { strictNumbers: false });
    expect(coerced(validate, '1e999')).toMatchObject({ valid: true, value: Number.POSITIVE_INFINITY });
  });

  it('adds the test of a finite number to the generated coercion of a string', () => {
    const source = (type: string, options: object = {}) =>
      new Ajv2020({ coerceTypes: true, code: { source: true }, ...options }).compile({ type }).source?.validateCode ??
      '';
    expect(source('integer')).toMatch(/!\(data % 1\) && isFinite\(\+data\)\)+\{coerced\d* = \+data;/);
    expect(source('number')).toMatch(/data == \+data && isFinite\(\+data\)\)+\{coerced\d* = \+data;/);
    expect(source('number', { strictNumbers: false })).not.toMatch(/isFinite/);
  });
});
