// npm run spec:diff -- [base-ref] [--allow-missing]: openapi.yaml at a git ref (default: the
// previous commit) against the working copy. Prints every change, breaking, compatible or
// documentation only; exits 1 on a breaking change unless info.version has a new major version.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseSpecYaml } from '../server/spec.js';
import { compareSpecs, documentationChanges, majorVersion } from './spec-compare.js';

// Exit codes: 0 nothing breaks, 1 a breaking change without a new major version, 2 cannot compare
// (a bad argument, an unknown ref, a revision without openapi.yaml, YAML that does not parse).
const git = (args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

function cannotCompare(why: string): never {
  console.error(`spec:diff: ${why}`);
  process.exit(2);
}

let options: { values: { 'allow-missing'?: boolean }; positionals: string[] };
try {
  options = parseArgs({ allowPositionals: true, options: { 'allow-missing': { type: 'boolean' } } });
} catch (err) {
  cannotCompare(`${(err as Error).message.split('\n')[0]} (usage: npm run spec:diff -- [ref] [--allow-missing])`);
}
if (options.positionals.length > 1)
  cannotCompare('one ref at most (usage: npm run spec:diff -- [ref] [--allow-missing])');
const ref = options.positionals[0] ?? 'HEAD~1';

try {
  git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
} catch {
  cannotCompare(`${JSON.stringify(ref)} is not a commit of this repository (a branch, a tag, HEAD~1...)`);
}
let baseText: string;
try {
  baseText = git(['show', `${ref}:openapi.yaml`]);
} catch {
  if (options.values['allow-missing']) {
    console.log(`spec:diff: ${ref} has no openapi.yaml; nothing to compare (--allow-missing).`);
    process.exit(0);
  }
  cannotCompare(`${ref} has no openapi.yaml to compare with (pass --allow-missing for the contract's first commit)`);
}
function parse(text: string, where: string): Record<string, unknown> {
  try {
    return parseSpecYaml(text) as Record<string, unknown>;
  } catch (err) {
    const { reason, mark } = err as { reason?: string; mark?: { line: number; column: number } };
    const position = mark ? `:${mark.line + 1}:${mark.column + 1}` : '';
    return cannotCompare(`${where}${position}: not valid YAML: ${reason ?? (err as Error).message}`);
  }
}
const before = parse(baseText, `openapi.yaml at ${ref}`);
let afterText = '';
try {
  afterText = readFileSync('openapi.yaml', 'utf8');
} catch (err) {
  cannotCompare(`cannot read openapi.yaml: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
}
const after = parse(afterText, 'openapi.yaml');
const changes = [...(await compareSpecs(before, after)), ...documentationChanges(before, after)];
const breaking = changes.filter((c) => c.breaking);
const documentation = changes.filter((c) => c.what.startsWith('documentation '));
for (const change of changes)
  console.log(`${change.breaking ? 'BREAKING  ' : 'compatible'}  ${change.where}: ${change.what}`);
const bumped = majorVersion(after) > majorVersion(before);
console.log(
  `spec:diff against ${ref}: ${changes.length} change(s), ${breaking.length} breaking, ${documentation.length} documentation only${bumped ? `; info.version goes to a new major (${String((after.info as { version?: string }).version)})` : ''}.`,
);
process.exit(breaking.length > 0 && !bumped ? 1 : 0);
