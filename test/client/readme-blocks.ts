// The code of the READMEs as the tests run it: the TypeScript examples of a README, as one module
// in the order they are written (the root README's section on the client, or the client's own
// README but its project setup), and the client README's project setup, step by step.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../support/process.js';

const ROOT_CLIENT_HEADING = '### The typed client';
const SETUP_HEADING = '## Setting up a project';
/** The first line of each shell block of the setup says where it runs. */
const IN_REPOSITORY = "# in a clone of the API's repository";
const IN_PROJECT = "# in your project's folder";
/** The first line of each file of the setup names it: `// tsconfig.json`. */
const FILE_NAME = /^\/\/ (\S+)$/;

/** A step of the project setup: commands run in a clone of the repository, or in the project, or a file of the project. */
export type SetupStep =
  | { kind: 'repository'; commands: string }
  | { kind: 'project'; commands: string }
  | { kind: 'file'; path: string; contents: string };

function read(file: 'README.md' | 'client/README.md'): string {
  return readFileSync(join(projectRoot, file), 'utf8');
}

/**
 * The section under `heading` (a whole line: `### The typed client`), up to the next heading of its
 * level or above outside code blocks (where `#` starts a shell comment); '' when there is none.
 */
function section(text: string, heading: string): string {
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  if (start === -1) return '';
  const level = heading.indexOf(' ');
  let inCode = false;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('```')) inCode = !inCode;
    const headingLevel = /^(#+) /.exec(line)?.[1]?.length;
    if (!inCode && headingLevel !== undefined && headingLevel <= level) return lines.slice(start, i).join('\n');
  }
  return lines.slice(start).join('\n');
}

function codeBlocks(text: string): { language: string; code: string }[] {
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    language: match[1] ?? '',
    code: match[2] ?? '',
  }));
}

export function clientReadmeBlocks(file: 'README.md' | 'client/README.md'): string {
  const readme = read(file);
  const text =
    file === 'README.md' ? section(readme, ROOT_CLIENT_HEADING) : readme.replace(section(readme, SETUP_HEADING), '');
  const blocks = codeBlocks(text)
    .filter(({ language }) => language === 'ts')
    .map(({ code }) => code);
  if (blocks.length === 0) throw new Error(`${file} has no TypeScript example`);
  return blocks.join('\n');
}

/** The steps of client/README.md's "Setting up a project", in order; throws on a block it cannot follow. */
export function clientSetupSteps(): SetupStep[] {
  const blocks = codeBlocks(section(read('client/README.md'), SETUP_HEADING));
  if (blocks.length === 0) throw new Error(`client/README.md has no "${SETUP_HEADING}" section with code`);
  return blocks.map(({ language, code }) => {
    const [first = '', ...rest] = code.split('\n');
    if (language === 'sh' && first === IN_REPOSITORY) return { kind: 'repository', commands: rest.join('\n') };
    if (language === 'sh' && first === IN_PROJECT) return { kind: 'project', commands: rest.join('\n') };
    const path = FILE_NAME.exec(first)?.[1];
    if (language !== 'sh' && path !== undefined) return { kind: 'file', path, contents: code };
    throw new Error(
      `client/README.md, "${SETUP_HEADING}": a block that starts with neither "${IN_REPOSITORY}", "${IN_PROJECT}" nor "// <file>": ${first}`,
    );
  });
}
