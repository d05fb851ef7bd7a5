// Where the project is stricter than oasdiff, the report line says so: the finding carries its
// override, and its text ends with it, in every format.
import { describe, expect, it } from 'vitest';
import { BATTERY, documentsOf } from '../../scripts/spec-diff/battery/battery-score.js';
import { specChanges } from '../../scripts/spec-diff/engine/compare.js';
import { textReport } from '../../scripts/spec-diff/format/report.js';

describe('a project override of an oasdiff level', () => {
  it('is visible in the report line of the finding', async () => {
    const edit = BATTERY.find((e) => e.ids.includes('api-security-removed') && e.override);
    if (!edit) throw new Error('the battery has no override edit for api-security-removed');
    const [before, after] = documentsOf(edit);
    const changes = await specChanges(before, after);
    expect(changes.find((c) => c.id === 'api-security-removed')).toMatchObject({
      level: 'error',
      override: 'project override: oasdiff says info',
    });
    const report = textReport({ from: { label: 'a', version: '1' }, to: { label: 'b', version: '1' }, changes });
    expect(report).toMatch(/^error +api-security-removed .*\(project override: oasdiff says info\)$/m);
  });

  it('is absent where oasdiff and the project agree', async () => {
    const edit = BATTERY.find(
      (e) => e.name === 'a global security alternative added where every operation has its own',
    );
    if (!edit) throw new Error('the battery lost its edit');
    const [before, after] = documentsOf(edit);
    const changes = await specChanges(before, after);
    expect(changes.filter((c) => c.id === 'api-global-security-added')).toEqual([
      expect.objectContaining({ level: 'info', what: expect.not.stringContaining('override') }),
    ]);
    expect(changes.some((c) => c.override)).toBe(false);
  });
});
