// The engine's findings folded into entries a person reads (format/entries.ts): a shared component
// once with where it is used, alternatives named by what tells them apart, a restructured schema one
// line per property, a summary in sentences. The findings are written here as the engine gives them,
// so that these tests hold whatever rules the engine grows.
import { describe, expect, it } from 'vitest';
import type { Change } from '../../scripts/spec-diff/engine/compare.js';
import { foldChanges } from '../../scripts/spec-diff/format/entries.js';
import { jsonReport, markdownReport, textReport } from '../../scripts/spec-diff/format/report.js';
import { summaryText } from '../../scripts/spec-diff/format/summary.js';

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Two operations whose error responses share ErrorBody -> ErrorMetadata. */
function withErrors(metadata: object) {
  const error = json(ref('ErrorBody'));
  return {
    openapi: '3.1.0',
    info: { title: 'T', version: '1.0.0' },
    paths: {
      '/a': { get: { responses: { '200': json({ type: 'object' }), '400': error, '404': error } } },
      '/b': { patch: { responses: { '200': json({ type: 'object' }), '400': error } } },
    },
    components: {
      schemas: {
        ErrorBody: { type: 'object', properties: { error: { type: 'object', properties: { metadata: ref('Meta') } } } },
        Meta: { type: 'object', properties: metadata },
      },
    },
  };
}

const change = (id: string, level: Change['level'], operation: string, where: string, what: string): Change => ({
  id,
  level,
  operation,
  where,
  what,
});

describe('folding findings', () => {
  it('says a change of a shared component once, naming the component and where it is used', () => {
    const documents = { before: withErrors({}), after: withErrors({ kinds: { type: 'array' } }) };
    const added = (operation: string, status: string) =>
      change(
        'response-optional-property-added',
        'info',
        operation,
        `response ${status} application/json.error.metadata.kinds`,
        'property added',
      );
    const changes = [added('GET /a', '400'), added('GET /a', '404'), added('PATCH /b', '400')];
    const entries = foldChanges(changes, documents);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      level: 'info',
      ids: ['response-optional-property-added'],
      operations: ['GET /a', 'PATCH /b'],
      where: '`Meta` → `kinds`',
      what: 'property added; where it is used: `GET /a` (responses 400, 404), `PATCH /b` (response 400)',
      changes: [0, 1, 2],
    });
  });

  it('says the same change of several responses once, by status', () => {
    const header = (status: string) =>
      change('response-header-added', 'info', 'GET /a', `response ${status} header RateLimit`, 'header added');
    const entries = foldChanges([header('200'), header('429')]);
    expect(entries.map((e) => [e.where, e.what])).toEqual([
      ['header `RateLimit`', 'header added; in `GET /a` (responses 200, 429)'],
    ]);
  });

  const rule = (title: string | undefined, operators: string[]) => ({
    type: 'object',
    ...(title && { title }),
    properties: {
      field: { type: 'string', enum: ['model', 'user'] },
      operator: { type: 'string', enum: operators },
      value: { type: 'string' },
    },
  });
  const body = (items: object) => ({
    openapi: '3.1.0',
    info: { title: 'T', version: '1.0.0' },
    paths: {
      '/d': { patch: { requestBody: json({ type: 'object', properties: { rules: { type: 'array', items } } }) } },
    },
    components: { schemas: { Regex: rule(undefined, ['regex']), Numeric: rule('numeric comparison', ['gt', 'lt']) } },
  });
  const alternatives = body({ oneOf: [ref('Regex'), ref('Numeric'), rule(undefined, ['a', 'b', 'c', 'd', 'e'])] });

  it('names an alternative by its one discriminating value, its title, else its position in words', () => {
    const documents = { before: alternatives, after: alternatives };
    const at = (n: number) =>
      change(
        'request-property-max-length-set',
        'error',
        'PATCH /d',
        `request body application/json.rules[](alternative ${n}).value`,
        'maxLength none -> 10',
      );
    const entries = foldChanges([at(1), at(2), at(3)], documents);
    expect(entries.map((e) => e.where)).toEqual([
      'request body → `rules[]` (the `regex` rule) → `value`',
      'request body → `rules[]` (the numeric comparison rule) → `value`',
      'request body → `rules[]` (the third rule alternative) → `value`',
    ]);
  });

  it('collapses a schema split into alternatives into one line per property', () => {
    const documents = { before: body(rule(undefined, ['regex', 'gt', 'lt', 'eq'])), after: alternatives };
    const removed = (n: number, value: string) =>
      change(
        'request-property-enum-value-removed',
        'error',
        'PATCH /d',
        `request body application/json.rules[](alternative ${n}).operator`,
        `enum value "${value}" removed`,
      );
    const changes = [removed(1, 'gt'), removed(1, 'lt'), removed(1, 'eq'), removed(2, 'regex'), removed(2, 'eq')];
    const entries = foldChanges(changes, documents);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.where).toBe('request body → `rules[].operator`');
    expect(entries[0]?.what).toBe(
      'in the `regex` rule: only `regex` accepted now (3 values removed); in the numeric comparison rule: only `gt`, `lt` accepted now (2 values removed)',
    );
  });

  it('says where a property went when its schema became alternatives that hold it', () => {
    const documents = { before: body(rule(undefined, ['regex', 'gt'])), after: alternatives };
    const removed = change(
      'request-property-removed',
      'warning',
      'PATCH /d',
      'request body application/json.rules[].operator',
      'property removed',
    );
    expect(foldChanges([removed], documents)[0]?.what).toBe('property removed: moved into each of its 3 alternatives');
  });

  it('names alternatives by position without the documents', () => {
    const entries = foldChanges([
      change(
        'request-property-type-changed',
        'error',
        'PATCH /d',
        'request body application/json.rules[](alternative 2).value',
        'type changed',
      ),
    ]);
    expect(entries[0]?.where).toBe('request body → `rules[]` (the second rule alternative) → `value`');
  });
});

describe('the reports', () => {
  const changes = [
    change('api-path-removed-without-deprecation', 'error', 'GET /old', 'GET /old', 'path removed'),
    change('endpoint-deprecated', 'info', 'GET /soon', 'GET /soon', 'deprecated'),
    change('endpoint-added', 'info', 'GET /new', 'GET /new', 'operation added'),
    {
      id: 'documentation-changed',
      level: 'info',
      where: 'info description',
      what: 'documentation changed: description',
    },
  ] satisfies Change[];
  const comparison = { from: { label: 'v1', version: '1.0.0' }, to: { label: 'v2', version: '2.0.0' }, changes };

  it('open with a summary in sentences: counts by level, where the breaking changes are, deprecations', () => {
    expect(summaryText(foldChanges(changes), changes.length)).toBe(
      '4 changes: 1 breaks existing clients (error), 0 may break them (warning) and 3 do not (info). The breaking changes are in `GET /old` (1). 1 change deprecates or sunsets something.',
    );
  });

  it('in Markdown, put breaking changes first, then deprecations, each under its operation', () => {
    const markdown = markdownReport(comparison);
    expect(markdown.split('\n').filter((line) => line.startsWith('#'))).toEqual([
      '## 1.0.0 -> 2.0.0 (v1 -> v2)',
      '### Breaking changes',
      '#### `GET /old`',
      '### Deprecations and sunsets',
      '#### `GET /soon`',
      '### Other changes',
      '#### `GET /new`',
      '#### The whole document',
    ]);
    expect(markdown).toContain('- path removed (`api-path-removed-without-deprecation`)');
    expect(markdown).toContain('- info deprecated (`endpoint-deprecated`)');
  });

  it('in text, say the same entries a line each, and the findings counted at the end', () => {
    expect(textReport(comparison).split('\n')).toEqual([
      summaryText(foldChanges(changes), changes.length).replaceAll('`', ''),
      'error    api-path-removed-without-deprecation  GET /old: path removed',
      'info     endpoint-deprecated  GET /soon: deprecated',
      'info     endpoint-added  GET /new: operation added',
      'info     documentation-changed  info: documentation edited (description): itself',
      'spec:diff v1 (1.0.0) -> v2 (2.0.0): 4 change(s): 1 error(s), 0 warning(s), 3 info.',
    ]);
  });

  it('in JSON, keep every finding beside the entries that fold them', () => {
    const parsed = JSON.parse(jsonReport(comparison)) as {
      changes: Change[];
      counts: Record<string, number>;
      entries: { changes: number[]; where: string }[];
    };
    expect(parsed.changes).toEqual(changes);
    expect(parsed.counts).toEqual({ error: 1, warning: 0, info: 3 });
    expect(parsed.entries.flatMap((e) => e.changes).sort()).toEqual([0, 1, 2, 3]);
    expect(parsed.entries[0]?.where).toBe('GET /old');
  });
});
