// `npm run spec:diff` as CI runs it, in a git repository of its own: a gate that passes only on a
// comparison it could make. Exit 0 nothing breaks, 1 a breaking change without a new major
// version, 2 it cannot compare.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectOutput } from '../../scripts/child-process.js';
import { documentationChanges } from '../../scripts/spec-compare.js';
import { projectRoot } from '../support/process.js';

let repo = '';
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' });

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'spec-diff-'));
  git('init', '-q');
  git('config', 'user.email', 'ci@example.com');
  git('config', 'user.name', 'CI');
  writeFileSync(join(repo, 'README.md'), 'before the contract\n');
  git('add', '.');
  git('commit', '-qm', 'no contract yet');
  copyFileSync(join(projectRoot, 'openapi.yaml'), join(repo, 'openapi.yaml'));
  git('add', '.');
  git('commit', '-qm', 'the contract');
});

async function specDiff(args: string[], edit?: (text: string) => string) {
  const original = readFileSync(join(projectRoot, 'openapi.yaml'), 'utf8');
  writeFileSync(join(repo, 'openapi.yaml'), edit ? edit(original) : original);
  const tsx = import.meta.resolve('tsx');
  const child = spawn(process.execPath, ['--import', tsx, join(projectRoot, 'scripts', 'spec-diff.ts'), ...args], {
    cwd: repo,
  });
  const result = await collectOutput(child);
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
    expect(stdout).toMatch(/^compatible {2}paths \S+ \w+ summary: documentation changed: summary$/m);
    expect(stdout).toMatch(/1 change\(s\), 0 breaking, 1 documentation only\.$/m);
  });

  it('exits 1 on a breaking change', async () => {
    const { code, stdout } = await specDiff(['HEAD'], (text) =>
      text.replace(/\n {2}\/presets\/\{slug\}\/versions:/, '\n  /presets/{slug}/all-versions:'),
    );
    expect(code).toBe(1);
    expect(stdout).toMatch(/^BREAKING/m);
  });

  it('exits 0 when nothing changed', async () => {
    const { code, stdout } = await specDiff(['HEAD']);
    expect(code).toBe(0);
    expect(stdout).toContain('0 change(s), 0 breaking, 0 documentation only.');
  });
});

describe('documentation changes', () => {
  it('are keywords of the contract, not names: a property called description is not documentation', () => {
    const schema = (extra: object) => ({
      components: { schemas: { Note: { type: 'object', description: 'A note.', properties: { ...extra } } } },
    });
    expect(documentationChanges(schema({}), schema({ description: { type: 'string' } }))).toEqual([]);
    expect(documentationChanges(schema({}), { components: { schemas: { Note: { type: 'object' } } } })).toEqual([
      { breaking: false, where: 'components schemas Note description', what: 'documentation removed: description' },
    ]);
  });
});
