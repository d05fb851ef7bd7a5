// openapi.yaml as a revision of git holds it, or as the working copy has it, parsed; what cannot be
// read is a CannotCompare, said in one line by the command that asked. Both read the repository of
// the current folder (npm runs scripts from the project's).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseSpecYaml } from '../../server/spec.js';

export type Document = Record<string, unknown>;

export class CannotCompare extends Error {}

export const WORKING_COPY = 'working copy';

const git = (args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

export function isCommit(ref: string): boolean {
  try {
    git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

function parse(text: string, where: string): Document {
  try {
    return parseSpecYaml(text) as Document;
  } catch (err) {
    const { reason, mark } = err as { reason?: string; mark?: { line: number; column: number } };
    const position = mark ? `:${mark.line + 1}:${mark.column + 1}` : '';
    throw new CannotCompare(`${where}${position}: not valid YAML: ${reason ?? (err as Error).message}`);
  }
}

/** openapi.yaml at `ref`, or undefined when that commit has none. */
export function specAt(ref: string): Document | undefined {
  if (!isCommit(ref))
    throw new CannotCompare(`${JSON.stringify(ref)} is not a commit of this repository (a branch, a tag, HEAD~1...)`);
  let text: string;
  try {
    text = git(['show', `${ref}:openapi.yaml`]);
  } catch {
    return undefined;
  }
  return parse(text, `openapi.yaml at ${ref}`);
}

export function workingSpec(): Document {
  let text: string;
  try {
    text = readFileSync('openapi.yaml', 'utf8');
  } catch (err) {
    throw new CannotCompare(
      `cannot read openapi.yaml: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  return parse(text, 'openapi.yaml');
}

export const versionOf = (document: Document) =>
  String((document.info as Document | undefined)?.version ?? 'no version');

/** The commits that changed openapi.yaml, newest first: hash, date (YYYY-MM-DD) and subject. */
export function specHistory(): { hash: string; date: string; subject: string }[] {
  return git(['log', '--format=%H%x09%as%x09%s', '--', 'openapi.yaml'])
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [hash = '', date = '', ...subject] = line.split('\t');
      return { hash, date, subject: subject.join('\t') };
    });
}
