// Values of a parameter that break exactly one keyword of its schema, and values exactly at its
// bounds, as the text a client puts in a URL or a header: digits with leading zeros, signs,
// exponents, spaces, other scripts' digits, numbers past a double's range, and percent-encoded
// bytes that are not UTF-8.
import type { SpecParameter } from '../../../server/spec.js';
import { type Resolve, typesOf } from './samples.js';
import type { Boundary, Violation } from './violations.js';

/** Percent-encoded bytes that decode to no UTF-8 text: a lone byte, an overlong form, a surrogate, a cut sequence. */
const NOT_UTF8 = ['%FF', '%C0%AF', '%ED%A0%80', '%E2%82'];

/** Text no database stores (openapi.yaml, "Text"). */
const UNSTORABLE = ['%00', 'a%00b'];

/** `value` in other forms that all read as a number: for integers written in digits only. */
function integerForms(value: number): { label: string; text: string }[] {
  const digits = String(value);
  const toScript = (zero: number) =>
    [...digits].map((c) => (c === '-' ? '-' : encodeURIComponent(String.fromCodePoint(zero + Number(c))))).join('');
  return [
    { label: 'with an exponent', text: value === 0 ? '0e0' : `${digits}e0` },
    { label: 'with a plus sign', text: `%2B${digits}` },
    { label: 'with a space before it', text: `%20${digits}` },
    { label: 'with a space after it', text: `${digits}%20` },
    { label: 'with a fraction of zero', text: `${digits}.0` },
    { label: 'in Arabic-Indic digits', text: toScript(0x0660) },
    { label: 'in fullwidth digits', text: toScript(0xff10) },
  ];
}

function integerValues(
  parameter: SpecParameter,
  resolve: Resolve,
): { violations: Violation[]; boundaries: Boundary[] } {
  const schema = resolve(parameter.schema);
  const minimum = schema.minimum as number | undefined;
  const maximum = schema.maximum as number | undefined;
  const nullable = typesOf(schema, resolve).has('null');
  const inUrl = parameter.in !== 'header';
  const violations: Violation[] = [
    { keyword: 'type', label: 'letters', text: 'abc' },
    { keyword: 'type', label: 'a fraction', text: '1.5' },
    { keyword: 'type', label: 'a boolean', text: 'true' },
    { keyword: 'type', label: 'hexadecimal', text: '0x10' },
    { keyword: 'type', label: `past a double's range (309 digits)`, text: '9'.repeat(309) },
    { keyword: 'type', label: `past a double's range, negative (400 digits)`, text: `-${'9'.repeat(400)}` },
    { keyword: 'type', label: `past a double's range, with an exponent`, text: '1e999' },
    ...(parameter.in === 'query'
      ? [{ keyword: 'type', label: 'written twice', text: `1&${encodeURIComponent(parameter.name)}=1` }]
      : []),
    ...(inUrl ? NOT_UTF8.map((text) => ({ keyword: 'type', label: `bytes that are not UTF-8 (${text})`, text })) : []),
    ...(inUrl ? integerForms(minimum ?? 1) : []).map(({ label, text }) => ({
      keyword: 'type',
      label: `a valid number ${label}`,
      text,
    })),
  ];
  if (!nullable) violations.push({ keyword: 'type', label: 'empty', text: '' });
  const boundaries: Boundary[] = nullable ? [{ label: 'empty (null)', text: '' }] : [];
  if (minimum !== undefined) {
    violations.push(
      { keyword: 'minimum', label: `minimum - 1 (${minimum - 1})`, text: String(minimum - 1) },
      {
        keyword: 'minimum',
        label: 'minimum - 1, with leading zeros',
        text: (minimum - 1 < 0 ? '-0' : '00') + String(Math.abs(minimum - 1)),
      },
      { keyword: 'minimum', label: 'far below the minimum (20 digits)', text: `-1${'0'.repeat(20)}` },
    );
    boundaries.push(
      { label: `the minimum (${minimum})`, text: String(minimum) },
      { label: 'the minimum, with leading zeros', text: `00${minimum}` },
    );
    if (minimum <= 0 && (maximum ?? 0) >= 0) boundaries.push({ label: 'minus zero', text: '-0' });
  }
  if (maximum !== undefined) {
    violations.push(
      { keyword: 'maximum', label: `maximum + 1 (${maximum + 1})`, text: String(maximum + 1) },
      { keyword: 'maximum', label: 'maximum + 1, with leading zeros', text: `000${maximum + 1}` },
      { keyword: 'maximum', label: 'far above the maximum (21 digits)', text: `1${'0'.repeat(20)}` },
    );
    boundaries.push({ label: `the maximum (${maximum})`, text: String(maximum) });
  }
  return { violations, boundaries };
}

function stringValues(parameter: SpecParameter, resolve: Resolve): { violations: Violation[]; boundaries: Boundary[] } {
  const schema = resolve(parameter.schema);
  const inUrl = parameter.in !== 'header';
  const violations: Violation[] = [];
  const boundaries: Boundary[] = [];
  const minLength = schema.minLength as number | undefined;
  const maxLength = schema.maxLength as number | undefined;
  // An empty path segment is another path: the operation is not matched at all.
  if (minLength !== undefined && minLength > 0 && parameter.in !== 'path')
    violations.push({
      keyword: 'minLength',
      label: `minLength - 1 (${minLength - 1})`,
      text: 'x'.repeat(minLength - 1),
    });
  if (maxLength !== undefined) {
    violations.push({
      keyword: 'maxLength',
      label: `maxLength + 1 (${maxLength + 1})`,
      text: 'x'.repeat(maxLength + 1),
    });
    if (inUrl)
      violations.push({
        keyword: 'maxLength',
        label: `maxLength + 1 (${maxLength + 1}) characters outside the BMP, percent-encoded`,
        text: encodeURIComponent('\u{1F642}'.repeat(maxLength + 1)),
      });
    if (schema.format === undefined && schema.pattern === undefined) {
      boundaries.push({ label: `maxLength (${maxLength})`, text: 'x'.repeat(maxLength) });
      if (inUrl)
        boundaries.push({
          label: `maxLength (${maxLength}) characters outside the BMP, percent-encoded`,
          text: encodeURIComponent('\u{1F642}'.repeat(maxLength)),
        });
    }
  }
  if (schema.format === 'uuid')
    violations.push(
      { keyword: 'format', label: 'not a uuid', text: 'not-a-uuid' },
      { keyword: 'format', label: 'a uuid with a letter past f', text: '00000000-0000-4000-8000-00000000000z' },
    );
  if (inUrl) {
    for (const text of NOT_UTF8)
      violations.push({ keyword: 'text', label: `bytes that are not UTF-8 (${text})`, text });
    for (const text of UNSTORABLE) violations.push({ keyword: 'text', label: `unstorable text (${text})`, text });
  }
  return { violations, boundaries };
}

/** What breaks the parameter, and what lies exactly on its bounds, as URL or header text. */
export function parameterValues(
  parameter: SpecParameter,
  resolve: Resolve,
): { violations: Violation[]; boundaries: Boundary[] } {
  const types = typesOf(resolve(parameter.schema), resolve);
  if (types.has('integer') || types.has('number')) return integerValues(parameter, resolve);
  if (types.has('string')) return stringValues(parameter, resolve);
  return { violations: [], boundaries: [] };
}
