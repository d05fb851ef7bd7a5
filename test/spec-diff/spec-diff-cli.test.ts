// `npm run spec:diff` as CI runs it, in a git repository of its own: a gate that passes only on a
// comparison it could make. Exit 0 nothing breaks, 1 a breaking change without a new major
// version, 2 it cannot compare.
import { describe, expect, it } from 'vitest';
import { documentationChanges } from '../../scripts/spec-diff/engine/compare.js';
import { scratchRepo } from './scratch-repo.js';

const repo = scratchRepo();

async function specDiff(args: string[], edit?: (text: string) => string) {
  repo.writeSpec(edit);
  const result = await repo.run('spec-diff/index', args);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  return result;
}

describe('spec:diff as a gate', () => {
  it('exits 2 on a ref it cannot read', async () => {
    const { code, stderr } = await specDiff(['mian']);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe('spec:diff: "mian" is not a commit of this repository (a branch, a tag, HEAD~1...)');
  });

  it('exits 2 on a revision without openapi.yaml, unless --allow-missing says it is the first', async () => {
    const missing = await specDiff(['HEAD~1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe(
      "spec:diff: HEAD~1 has no openapi.yaml to compare with (pass --allow-missing for the contract's first commit)",
    );
    const allowed = await specDiff(['HEAD~1', '--allow-missing']);
    expect(allowed.code).toBe(0);
  });

  it('exits 2 on an unknown option', async () => {
    const { code, stderr } = await specDiff(['--alow-missing']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 2 with the file, line and column of YAML that does not parse', async () => {
    const { code, stderr } = await specDiff(['HEAD'], (text) => text.replace('openapi: 3.1.0', 'openapi: [3.1.0'));
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^spec:diff: openapi\.yaml:\d+:\d+: not valid YAML: /);
  });

  it('lists a description-only edit as documentation, and passes', async () => {
    const { code, stdout } = await specDiff(['HEAD'], (text) =>
      text.replace(/(\n {6}summary: )([^\n]+)/, '$1$2 (reworded)'),
    );
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe(
      '1 change: 0 break existing clients (error), 0 may break them (warning) and 1 does not (info).',
    );
    expect(stdout).toMatch(
      /^info +\S*documentation-changed +GET \S+: documentation edited \(summary\): the operation$/m,
    );
    expect(stdout).toMatch(/: 1 change\(s\): 0 error\(s\), 0 warning\(s\), 1 info\.$/m);
  });

  it('exits 1 on a breaking change', async () => {
    const { code, stdout } = await specDiff(['HEAD'], (text) =>
      text.replace(/\n {2}\/presets\/\{slug\}\/versions:/, '\n  /presets/{slug}/all-versions:'),
    );
    expect(code).toBe(1);
    expect(stdout).toMatch(/^error +api-path-removed-without-deprecation +GET \/presets\/\{slug\}\/versions/m);
  });

  it('passes a warning, and fails on it with --fail-on warning', async () => {
    const addEnumValue = (text: string) => text.replace(/(\n {8}- webhook)/, '$1\n        - honeycomb');
    const passed = await specDiff(['HEAD'], addEnumValue);
    expect(passed.code).toBe(0);
    expect(passed.stdout).toMatch(/^warning +response-property-enum-value-added /m);
    const failed = await specDiff(['HEAD', '--fail-on', 'warning'], addEnumValue);
    expect(failed.code).toBe(1);
  });

  it('prints JSON and Markdown with the same findings', async () => {
    const edit = (text: string) =>
      text.replace(/\n {2}\/presets\/\{slug\}\/versions:/, '\n  /presets/{slug}/all-versions:');
    const json = await specDiff(['HEAD', '--format', 'json'], edit);
    const parsed = JSON.parse(json.stdout) as {
      summary: string;
      counts: Record<string, number>;
      changes: { id: string; level: string }[];
      entries: { level: string; ids: string[]; where: string; what: string; changes: number[] }[];
    };
    expect(parsed.changes).toContainEqual(
      expect.objectContaining({ id: 'api-path-removed-without-deprecation', level: 'error' }),
    );
    expect(parsed.counts.error).toBe(parsed.changes.filter((c) => c.level === 'error').length);
    // Every finding in full, and each in exactly one of the entries that the other formats show.
    expect(parsed.entries.flatMap((e) => e.changes).sort((a, b) => a - b)).toEqual(parsed.changes.map((_, i) => i));
    expect(parsed.entries[0]).toMatchObject({
      level: 'error',
      ids: ['api-path-removed-without-deprecation'],
      where: 'GET /presets/{slug}/versions',
      what: 'path removed',
    });
    const markdown = await specDiff(['HEAD', '--format', 'markdown'], edit);
    expect(markdown.stdout).toContain(`\n${parsed.summary.replace('GET /presets/{slug}/versions', '`$&`')}\n`);
    expect(markdown.stdout).toContain(
      '#### `GET /presets/{slug}/versions`\n\n- path removed (`api-path-removed-without-deprecation`)',
    );
    const text = await specDiff(['HEAD'], edit);
    expect(text.stdout.split('\n')[0]).toBe(parsed.summary);
    expect(text.stdout).toMatch(
      /^error +api-path-removed-without-deprecation +GET \/presets\/\{slug\}\/versions: path removed$/m,
    );
    expect([json.code, markdown.code]).toEqual([1, 1]);
  });

  it.each([
    [['--format', 'yaml'], 'spec:diff: --format takes text, json, markdown (got "yaml")'],
    [['--fail-on', 'info'], 'spec:diff: --fail-on takes error or warning (got "info")'],
  ])('exits 2 with one line on %j', async (args, line) => {
    const { code, stderr } = await specDiff(['HEAD', ...args]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([line]);
  });

  it('exits 0 when nothing changed', async () => {
    const { code, stdout } = await specDiff(['HEAD']);
    expect(code).toBe(0);
    expect(stdout).toContain(': 0 change(s): 0 error(s), 0 warning(s), 0 info.');
  });
});

describe('documentation changes', () => {
  it('are keywords of the contract, not names: a property called description is not documentation', () => {
    const schema = (extra: object) => ({
      components: { schemas: { Note: { type: 'object', description: 'A note.', properties: { ...extra } } } },
    });
    expect(documentationChanges(schema({}), schema({ description: { type: 'string' } }))).toEqual([]);
    expect(documentationChanges(schema({}), { components: { schemas: { Note: { type: 'object' } } } })).toEqual([
      {
        id: 'project-documentation-changed',
        level: 'info',
        where: 'components schemas Note description',
        what: 'documentation removed: description',
      },
    ]);
  });
});
