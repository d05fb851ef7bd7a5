// npm run spec:diff -- [base-ref]: openapi.yaml at a git ref (default: the previous commit)
// against the working copy. Prints every change, breaking or not; exits 1 on a breaking change
// unless info.version has a new major version.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseSpecYaml } from '../server/spec.js';
import { compareSpecs, majorVersion } from './spec-compare.js';

// Exit codes: 0 nothing breaks, 1 a breaking change without a new major version, 2 cannot compare.
const git = (args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
const ref = process.argv[2] ?? 'HEAD~1';

function cannotCompare(why: string): never {
  console.error(`spec:diff: ${why}`);
  process.exit(2);
}

try {
  git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
} catch {
  cannotCompare(`${JSON.stringify(ref)} is not a commit of this repository (a branch, a tag, HEAD~1...)`);
}
let baseText: string;
try {
  baseText = git(['show', `${ref}:openapi.yaml`]);
} catch {
  console.log(`spec:diff: ${ref} has no openapi.yaml: nothing to compare.`);
  process.exit(0);
}
function parse(text: string, where: string): Record<string, unknown> {
  try {
    return parseSpecYaml(text) as Record<string, unknown>;
  } catch (err) {
    return cannotCompare(
      `openapi.yaml ${where} is not valid YAML: ${(err as { reason?: string }).reason ?? (err as Error).message}`,
    );
  }
}
const before = parse(baseText, `at ${ref}`);
let afterText = '';
try {
  afterText = readFileSync('openapi.yaml', 'utf8');
} catch (err) {
  cannotCompare(`cannot read openapi.yaml: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
}
const after = parse(afterText, 'in the working copy');
const changes = await compareSpecs(before, after);
const breaking = changes.filter((c) => c.breaking);
for (const change of changes)
  console.log(`${change.breaking ? 'BREAKING  ' : 'compatible'}  ${change.where}: ${change.what}`);
const bumped = majorVersion(after) > majorVersion(before);
console.log(
  `spec:diff against ${ref}: ${changes.length} change(s), ${breaking.length} breaking${bumped ? `; info.version goes to a new major (${String((after.info as { version?: string }).version)})` : ''}.`,
);
process.exit(breaking.length > 0 && !bumped ? 1 : 0);
