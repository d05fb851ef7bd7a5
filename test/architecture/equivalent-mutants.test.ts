// The equivalent mutants are answered in mutation/equivalents.md, by entries that name the file, the
// mutator and the code, never by comments in the code: Stryker's comments would shape the code for
// the tool. An entry names code its file holds, so that a change to that code brings the entry up.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Equivalent, foundIn, readEquivalents, withEquivalents } from '../../scripts/mutation/equivalents.js';
import { readRecorded } from '../../scripts/mutation/record.js';
import { projectRoot } from '../support/process.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory())
      return ['dist', 'node_modules'].includes(entry.name) ? [] : sourceFiles(join(dir, entry.name));
    return entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [];
  });
}

const { entries, problems } = readEquivalents();
const named = (entry: Equivalent) =>
  `mutation/equivalents.md line ${entry.line} (${entry.heading}): ${entry.file} ${entry.mutator} ${entry.in ?? entry.code}`;

describe('the equivalent mutants', () => {
  it('are marked by no Stryker comment in server/ or client/', () => {
    const comments = ['server', 'client'].flatMap((folder) =>
      sourceFiles(join(projectRoot, folder)).flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((text, index) =>
            /stryker (?:disable|restore)/i.test(text) ? [`${relative(projectRoot, file)}:${index + 1}`] : [],
          ),
      ),
    );
    expect(comments).toEqual([]);
  });

  it('are answered by well-formed entries of mutation/equivalents.md', () => {
    expect(problems).toEqual([]);
    expect(entries.length).toBeGreaterThan(5);
  });

  it('are answered by entries that name a file of the project (written as its path, to update when it moves)', () => {
    const missing = entries.filter((entry) => !existsSync(join(projectRoot, entry.file)));
    expect(missing.map((entry) => `${named(entry)}: no file ${entry.file}`)).toEqual([]);
  });

  it('are answered by entries whose code their file holds', () => {
    const gone = entries.filter(
      (entry) =>
        existsSync(join(projectRoot, entry.file)) &&
        !foundIn(entry, readFileSync(join(projectRoot, entry.file), 'utf8')),
    );
    expect(gone.map((entry) => `${named(entry)}: not found in ${entry.file}`)).toEqual([]);
  });

  it('are answered by entries that each match a mutant of the record left alive, where the record holds their code', () => {
    // The record may hold an older text of a file, in which an entry written for the code of now
    // need not be: such an entry waits for the next run of its file.
    const { files } = readRecorded().results;
    const { stale } = withEquivalents(files, entries);
    const wrong = stale.filter((entry) => {
      const recorded = files[entry.file];
      return recorded !== undefined && foundIn(entry, recorded.source);
    });
    expect(wrong.map((entry) => `${named(entry)}: matches no mutant of the record left alive`)).toEqual([]);
  });

  it('are answered by entries for every mutant the record holds as ignored, which a run now reports as survived', () => {
    // Mutants of the record from when Stryker comments turned them off, and as a run without them
    // sees them: of the files the record holds as they stand now (one that moved or changed since
    // is mutated again, and its entries are held to its text by the tests above).
    const current = (file: string, source: string) =>
      existsSync(join(projectRoot, file)) && readFileSync(join(projectRoot, file), 'utf8') === source;
    const files = Object.fromEntries(
      Object.entries(readRecorded().results.files).filter(([file, result]) => current(file, result.source)),
    );
    const survived = Object.fromEntries(
      Object.entries(files).map(([file, result]) => [
        file,
        {
          ...result,
          mutants: result.mutants.map((mutant) =>
            mutant.status === 'Ignored' ? { ...mutant, status: 'Survived' as const } : mutant,
          ),
        },
      ]),
    );
    const left = Object.entries(withEquivalents(survived, entries).files).flatMap(([file, result]) =>
      result.mutants.flatMap((mutant, index) =>
        files[file]?.mutants[index]?.status === 'Ignored' && mutant.status !== 'Ignored'
          ? [`${file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName}`]
          : [],
      ),
    );
    expect(left).toEqual([]);
  });
});
