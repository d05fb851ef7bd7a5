// The engine held against edits its author did not write. These edits (outside-edits.ts) were
// written from oasdiff's own checker test cases and rule registry (v1.28.0) by someone who had not
// read this project's engine nor its battery when writing the first batch (everything before the
// "second batch" mark); the later batches were added while fixing the engine, still each from an
// oasdiff test case, with its expectation taken from oasdiff's source and never from the engine.
// Each edit of openapi.yaml expects the rule id oasdiff reports for it, at oasdiff's level (ERR
// error, WARN warning, INFO info): an error edit must fail the gate, a warning edit warn, an info
// edit inform.
//
// An edit marked `projectOverride` is one where the project reports oasdiff's rule louder on
// purpose: the finding must keep oasdiff's id, come at the project's level, and name oasdiff's own
// level in its override note. An edit marked `knownGap` is one the engine still gets wrong: it is
// expected to keep failing, so that the day the engine is fixed this test says so and the mark can
// go. The silences are edits oasdiff reports nothing for (of the rules they name).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { specChanges } from '../../scripts/spec-diff/engine/compare.js';
import { parseSpecYaml } from '../../server/spec.js';
import { type Json, type Level, type OutsideEdit, outsideEdits, outsideSilences } from './outside-edits.js';

const spec = parseSpecYaml(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as Json;

const OASDIFF_SAYS: Record<Level, string> = { error: 'errs', warning: 'warns', info: 'says info' };

/** The changes the engine reports for an edit, as `level id` lines (and the override note, if any). */
async function reported(edit: Pick<OutsideEdit, 'setup' | 'edit'>): Promise<string[]> {
  const before = structuredClone(spec);
  edit.setup?.(before);
  const after = structuredClone(before);
  edit.edit(after);
  const changes = await specChanges(before, after);
  return changes.map((c) => `${c.level} ${c.id}${c.override ? ` (${c.override})` : ''}`);
}

/** The line an edit expects: oasdiff's level and id, or the project's level with its declared override. */
const expected = (edit: OutsideEdit) =>
  edit.projectOverride
    ? `${edit.projectOverride} ${edit.id} (project override: oasdiff ${OASDIFF_SAYS[edit.level]})`
    : `${edit.level} ${edit.id}`;

describe('edits written from oasdiff test cases, outside the engine', () => {
  it('are many, across many rules, each naming the oasdiff test case it follows', () => {
    expect(outsideEdits.length).toBeGreaterThanOrEqual(60);
    expect(new Set(outsideEdits.map((e) => e.id)).size).toBeGreaterThanOrEqual(45);
    for (const edit of outsideEdits) expect(edit.title).toMatch(/^[a-z_]+_test /);
  });

  it.each(outsideEdits.filter((e) => !e.knownGap).map((e) => [e.title, e] as const))('%s', async (_title, edit) => {
    const lines = await reported(edit);
    expect(lines).toContain(expected(edit));
    // The gate: an error edit fails it; a warning or info edit does not (by default).
    if ((edit.projectOverride ?? edit.level) !== 'error') expect(lines.some((l) => l.startsWith('error '))).toBe(false);
  });

  const gaps = outsideEdits.filter((e) => e.knownGap);
  it.runIf(gaps.length > 0).each(gaps.map((e) => [e.title, e] as const))(
    'known gap, still failing: %s',
    async (_title, edit) => {
      expect(await reported(edit), `fixed? drop knownGap: ${edit.knownGap}`).not.toContain(expected(edit));
    },
  );

  const loud = (lines: string[], absent: string[]) =>
    lines.filter((l) => absent.includes(l.split(' ')[1] ?? '') || l.startsWith('error '));
  it.each(outsideSilences.filter((e) => !e.knownGap).map((e) => [e.title, e] as const))(
    'reports nothing of it: %s',
    async (_title, edit) => {
      expect(loud(await reported(edit), edit.absent)).toEqual([]);
    },
  );
  const loudGaps = outsideSilences.filter((e) => e.knownGap);
  it.runIf(loudGaps.length > 0).each(loudGaps.map((e) => [e.title, e] as const))(
    'known gap, still reported: %s',
    async (_title, edit) => {
      expect(loud(await reported(edit), edit.absent), `fixed? drop knownGap: ${edit.knownGap}`).not.toEqual([]);
    },
  );
});
