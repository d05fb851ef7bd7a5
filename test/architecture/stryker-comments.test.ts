// Each equivalent mutant is marked where it is by one short line that points to its reason in
// mutation/equivalents.md, where every reason is written once.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/process.js';

const MAX_LENGTH = 160;
const MARK =
  /\/\/ Stryker disable next-line \w+(?:,\w+)*: (?:equivalent|untestable), see mutation\/equivalents\.md#([\w-]+)$/;

// Comments of files being rewritten elsewhere, still in the long form: empty this list once they
// take their one-line form (the lines are written beside their reasons in mutation/equivalents.md).
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory())
      return ['dist', 'node_modules'].includes(entry.name) ? [] : sourceFiles(join(dir, entry.name));
    return entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [];
  });
}

const comments = ['server', 'client'].flatMap((folder) =>
  sourceFiles(join(projectRoot, folder)).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .map((text, index) => ({ where: `${relative(projectRoot, file)}:${index + 1}`, text }))
      .filter(({ text }) => /stryker/i.test(text)),
  ),
);

/** A heading's anchor as Markdown renderers make it: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');

const anchors = new Set(
  [...readFileSync(join(projectRoot, 'mutation/equivalents.md'), 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((match) =>
    anchorOf(match[1] ?? ''),
  ),
);

describe('the Stryker comments of server/ and client/', () => {
  const checked = comments;

  it('are found', () => {
    expect(checked.length).toBeGreaterThan(5);
  });

  it(`are one line of at most ${MAX_LENGTH} characters in the one form`, () => {
    const astray = checked.filter(({ text }) => text.length > MAX_LENGTH || !MARK.test(text));
    const long = astray.map(({ where, text }) => `${where} (${text.length} characters): ${text.trim()}`);
    expect(long, long.join('\n')).toEqual([]);
  });

  it('name an anchor of mutation/equivalents.md', () => {
    const unknown = checked.filter(({ text }) => !anchors.has(MARK.exec(text)?.[1] ?? ''));
    const unknownMarks = unknown.map(({ where, text }) => `${where}: ${MARK.exec(text)?.[1]}`);
    expect(unknownMarks, unknownMarks.join('\n')).toEqual([]);
  });
});
