// The contract is read with YAML 1.2's core schema: what looks like a date stays a string, as
// JSON Schema and the generated JSON expect.
import { describe, expect, it } from 'vitest';
import { parseSpecYaml } from '../../server/spec.js';

describe('reading openapi.yaml', () => {
  it('keeps timestamps and dates as strings, and reads numbers, booleans and null as such', () => {
    expect(
      parseSpecYaml('at: 2026-11-18T12:00:00Z\nday: 2026-11-18\nn: 0.5\nyes: true\nnone: null\nword: on\n'),
    ).toEqual({
      at: '2026-11-18T12:00:00Z',
      day: '2026-11-18',
      n: 0.5,
      yes: true,
      none: null,
      word: 'on',
    });
  });

  it('refuses a mapping with a key written twice', () => {
    expect(() => parseSpecYaml('a: 1\na: 2\n')).toThrow(/duplicated mapping key/);
  });
});
