// The equivalent mutants of mutation/equivalents.md: each entry, a fenced `equivalent` block under
// the heading of its reason, names a file, a mutator and the code a mutant changes there, and the
// score counts the mutants it matches as equivalent rather than as survivors. An entry matches by
// the code's text, never by line, so that an edit elsewhere in the file leaves it standing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileResult, MutantResult } from 'mutation-testing-report-schema';
import { projectRoot } from '../../server/project-root.js';

export const EQUIVALENTS_PAGE = join(projectRoot, 'mutation', 'equivalents.md');

export interface Equivalent {
  /** The file by its path in the project, as the report names it. */
  file: string;
  mutator: string;
  /** The source text of the span the mutant changes. */
  code: string;
  /** A longer text around the code, for a code that the file holds more than once. */
  in?: string;
  /** The mutant's replacement, for a span whose other mutants of the same mutator are not equivalent. */
  replacement?: string;
  /** The heading the entry stands under, its reason, and that heading's anchor. */
  heading: string;
  anchor: string;
  /** The line of the page where the entry starts. */
  line: number;
}

export interface ParsedEquivalents {
  entries: Equivalent[];
  /** What makes an entry not well-formed, each with its line of the page. */
  problems: string[];
}

const FIELDS = ['file', 'mutator', 'code', 'in', 'replacement'] as const;
type Field = (typeof FIELDS)[number];

/** A heading's anchor as Markdown renderers make it: lower case, punctuation dropped, spaces as hyphens. */
export const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');

/**
 * The entries of the page: every block fenced with ```equivalent holds entries parted by blank
 * lines, each of `field: value` lines (file, mutator and code required; in and replacement
 * optional), a line indented under a field going on with its value.
 */
export function parseEquivalents(page: string): ParsedEquivalents {
  const entries: Equivalent[] = [];
  const problems: string[] = [];
  const lines = page.split('\n');
  let heading: string | undefined;
  let block: { line: number; lines: { line: number; text: string }[] } | undefined;
  lines.forEach((text, index) => {
    const line = index + 1;
    if (block) {
      if (text.trim() !== '```') block.lines.push({ line, text });
      else {
        if (heading === undefined) problems.push(`line ${block.line}: an equivalent block under no heading`);
        for (const group of groups(block.lines)) {
          const entry = entryOf(group, heading ?? '', problems);
          if (entry) entries.push(entry);
        }
        block = undefined;
      }
      return;
    }
    const title = /^#{1,6} (.+)$/.exec(text)?.[1];
    if (title !== undefined) heading = title.trim();
    else if (text.trim() === '```equivalent') block = { line, lines: [] };
  });
  if (block) problems.push(`line ${block.line}: an equivalent block never closed`);
  return { entries, problems };
}

function groups(lines: { line: number; text: string }[]): { line: number; text: string }[][] {
  const found: { line: number; text: string }[][] = [[]];
  for (const line of lines) {
    if (line.text.trim() === '') found.push([]);
    else found.at(-1)?.push(line);
  }
  return found.filter((group) => group.length > 0);
}

function entryOf(lines: { line: number; text: string }[], heading: string, problems: string[]): Equivalent | undefined {
  const start = lines[0]?.line ?? 0;
  const values = new Map<Field, string>();
  let last: Field | undefined;
  const problem = (what: string, line = start) => problems.push(`line ${line}: ${what}`);
  for (const { line, text } of lines) {
    if (/^\s/.test(text) && last !== undefined) {
      values.set(last, `${values.get(last)}\n${text.trim()}`);
      continue;
    }
    const field = /^(\w+): ?(.*)$/.exec(text);
    const name = field?.[1] as Field | undefined;
    if (!field || !name || !FIELDS.includes(name)) {
      problem(`not a field of an entry (${FIELDS.join(', ')}): ${text.trim()}`, line);
      return undefined;
    }
    if (values.has(name)) {
      problem(`${name} given twice`, line);
      return undefined;
    }
    values.set(name, field[2] ?? '');
    last = name;
  }
  const missing = (['file', 'mutator', 'code'] as const).filter((name) => !normalised(values.get(name) ?? ''));
  if (missing.length > 0) {
    problem(`an entry without ${missing.join(', ')}`);
    return undefined;
  }
  const file = (values.get('file') ?? '').trim();
  const mutator = (values.get('mutator') ?? '').trim();
  const code = normalised(values.get('code') ?? '');
  const around = values.has('in') ? normalised(values.get('in') ?? '') : undefined;
  if (!/^[\w./-]+\.ts$/.test(file)) problem(`the file is not a path of a .ts file: ${file}`);
  else if (!/^[A-Z]\w*$/.test(mutator)) problem(`the mutator is not a name of Stryker's: ${mutator}`);
  else if (around !== undefined && !around.includes(code)) problem(`its in does not hold its code: ${code}`);
  else
    return {
      file,
      mutator,
      code,
      ...(around !== undefined && { in: around }),
      ...(values.has('replacement') && { replacement: normalised(values.get('replacement') ?? '') }),
      heading,
      anchor: anchorOf(heading),
      line: start,
    };
  return undefined;
}

export function readEquivalents(page = EQUIVALENTS_PAGE): ParsedEquivalents {
  return parseEquivalents(readFileSync(page, 'utf8'));
}

/** What a mutant matched to an entry is reported with. */
export const reasonOf = (entry: Equivalent) => `${entry.heading} (mutation/equivalents.md#${entry.anchor})`;

/** Whitespace made single spaces, and lines that are a `//` comment alone dropped, as code is compared. */
export const normalised = (text: string) => normalisedText(text).text;

interface NormalisedText {
  text: string;
  /** For each character of `text`, its offset in the text it was made from. */
  offsets: number[];
}

function normalisedText(source: string): NormalisedText {
  const blank = source.replace(/^[ \t]*\/\/.*$/gm, (comment) => ' '.repeat(comment.length));
  let text = '';
  const offsets: number[] = [];
  for (let index = 0; index < blank.length; index++) {
    const char = blank[index] ?? '';
    if (!/\s/.test(char)) {
      text += char;
      offsets.push(index);
    } else if (text !== '' && !text.endsWith(' ')) {
      text += ' ';
      offsets.push(index);
    }
  }
  if (text.endsWith(' ')) {
    text = text.slice(0, -1);
    offsets.pop();
  }
  return { text, offsets };
}

/** The offsets, in `source`, of each stretch of it whose normalised text is `wanted`'s (already normalised). */
function stretchesOf(source: NormalisedText, wanted: string): [number, number][] {
  const found: [number, number][] = [];
  if (wanted === '') return found;
  for (let at = source.text.indexOf(wanted); at >= 0; at = source.text.indexOf(wanted, at + 1))
    found.push([source.offsets[at] ?? 0, (source.offsets[at + wanted.length - 1] ?? 0) + 1]);
  return found;
}

/** Whether a file's text holds an entry's code (and the text around it the entry gives). */
export function foundIn(entry: Equivalent, source: string): boolean {
  return stretchesOf(normalisedText(source), entry.in ?? entry.code).length > 0;
}

/** A file's source read for matching: its text normalised once, and where each of its lines starts. */
export interface SourceIndex {
  source: string;
  normalised: NormalisedText;
  lineStarts: number[];
}

export function indexSource(source: string): SourceIndex {
  const lineStarts = [0];
  for (let index = source.indexOf('\n'); index >= 0; index = source.indexOf('\n', index + 1))
    lineStarts.push(index + 1);
  return { source, normalised: normalisedText(source), lineStarts };
}

/** The span of a mutant, as offsets of its file's source (Stryker's lines and columns start at 1). */
function spanOf(index: SourceIndex, mutant: MutantResult): [number, number] {
  const at = ({ line, column }: { line: number; column: number }) => (index.lineStarts[line - 1] ?? 0) + column - 1;
  return [at(mutant.location.start), at(mutant.location.end)];
}

export function matches(entry: Equivalent, file: string, index: SourceIndex, mutant: MutantResult): boolean {
  if (entry.file !== file || entry.mutator !== mutant.mutatorName) return false;
  if (entry.replacement !== undefined && normalised(mutant.replacement ?? '') !== entry.replacement) return false;
  const [start, end] = spanOf(index, mutant);
  if (normalised(index.source.slice(start, end)) !== entry.code) return false;
  return (
    entry.in === undefined || stretchesOf(index.normalised, entry.in).some(([from, to]) => from <= start && end <= to)
  );
}

/** The statuses of a mutant that an entry answers: those that no test killed. */
const ANSWERED = new Set(['Survived', 'NoCoverage', 'Ignored']);

export interface Matched {
  /** The files with every mutant an entry matches made Ignored, with the entry's reason. */
  files: Record<string, FileResult>;
  /** Mutants Ignored in the report that no entry matches: ignored by a means of their own. */
  unmatchedIgnored: { file: string; mutant: MutantResult }[];
  /** Entries of the files reported that match none of their mutants that no test killed. */
  stale: Equivalent[];
}

/**
 * The report's files with the mutants the entries answer counted as equivalent. An entry that only
 * a timed-out mutant matches is not stale: a loaded machine may time an equivalent mutant out.
 */
export function withEquivalents(files: Record<string, FileResult>, entries: Equivalent[]): Matched {
  const used = new Set<Equivalent>();
  const unmatchedIgnored: Matched['unmatchedIgnored'] = [];
  const matched = Object.fromEntries(
    Object.entries(files).map(([file, result]) => {
      const own = entries.filter((entry) => entry.file === file);
      const index = indexSource(result.source);
      const mutants = result.mutants.map((mutant) => {
        if (!ANSWERED.has(mutant.status) && mutant.status !== 'Timeout') return mutant;
        const entry = own.find((candidate) => matches(candidate, file, index, mutant));
        if (entry) used.add(entry);
        if (!ANSWERED.has(mutant.status)) return mutant;
        if (!entry) {
          if (mutant.status === 'Ignored') unmatchedIgnored.push({ file, mutant });
          return mutant;
        }
        return { ...mutant, status: 'Ignored' as const, statusReason: reasonOf(entry) };
      });
      return [file, { ...result, mutants }];
    }),
  );
  const stale = entries.filter((entry) => entry.file in files && !used.has(entry));
  return { files: matched, unmatchedIgnored, stale };
}
