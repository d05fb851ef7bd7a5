// npm run spec:changelog -- <from> [<to>]: the Markdown changelog of openapi.yaml between two
// revisions (to: the working copy when left out), grouped by operation, each change with its level
// and rule id, both info.versions named.
import { specChanges } from './engine/compare.js';
import { markdownReport } from './format/report.js';
import { CannotCompare, specAt, versionOf, WORKING_COPY, workingSpec } from './revisions.js';

const USAGE = 'usage: npm run spec:changelog -- <from> [<to>]';
const args = process.argv.slice(2);
if (args.length < 1 || args.length > 2 || args.some((arg) => arg.startsWith('-'))) {
  console.error(`spec:changelog: one or two revisions (${USAGE})`);
  process.exit(2);
}
const [from = '', to] = args;
try {
  const before = specAt(from);
  const after = to === undefined ? workingSpec() : specAt(to);
  if (!before || !after) throw new CannotCompare(`${before ? to : from} has no openapi.yaml`);
  const changes = await specChanges(before, after);
  console.log(
    `# Changelog\n\n${markdownReport({
      from: { label: from, version: versionOf(before) },
      to: { label: to ?? WORKING_COPY, version: versionOf(after) },
      changes,
    })}`,
  );
} catch (err) {
  if (!(err instanceof CannotCompare)) throw err;
  console.error(`spec:changelog: ${err.message}`);
  process.exit(2);
}
