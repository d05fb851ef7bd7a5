// npm run spec:diff -- [base-ref]: openapi.yaml at a git ref (default: the previous commit)
// against the working copy. Prints every change, breaking or not; exits 1 on a breaking change
// unless info.version has a new major version.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseSpecYaml } from '../server/spec.js';
import { compareSpecs, majorVersion } from './spec-compare.js';

const ref = process.argv[2] ?? 'HEAD~1';
let baseText: string;
try {
  baseText = execFileSync('git', ['show', `${ref}:openapi.yaml`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
} catch {
  console.log(`spec:diff: no openapi.yaml at ${ref} (first commit, or history not fetched): nothing to compare.`);
  process.exit(0);
}
const before = parseSpecYaml(baseText) as Record<string, unknown>;
const after = parseSpecYaml(readFileSync('openapi.yaml', 'utf8')) as Record<string, unknown>;
const changes = await compareSpecs(before, after);
const breaking = changes.filter((c) => c.breaking);
for (const change of changes) console.log(`${change.breaking ? 'BREAKING  ' : 'compatible'}  ${change.where}: ${change.what}`);
const bumped = majorVersion(after) > majorVersion(before);
console.log(`spec:diff against ${ref}: ${changes.length} change(s), ${breaking.length} breaking${bumped ? `; info.version goes to a new major (${String((after.info as { version?: string }).version)})` : ''}.`);
process.exit(breaking.length > 0 && !bumped ? 1 : 0);
