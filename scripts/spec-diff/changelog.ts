// npm run spec:changelog -- <from> [<to>]: the Markdown changelog of openapi.yaml between two
// revisions (to: the working copy when left out): a summary, then the changes folded as a person
// reads them (format/entries.ts), breaking first, both info.versions named.
import { runMain } from '../../server/run-main.js';
import { specChanges } from './engine/compare.js';
import { markdownReport } from './format/report.js';
import { CannotCompare, specAt, versionOf, WORKING_COPY, workingSpec } from './revisions.js';

const USAGE = 'usage: npm run spec:changelog -- <from> [<to>]';

export async function main(argv: string[]): Promise<number> {
  if (argv.length < 1 || argv.length > 2 || argv.some((arg) => arg.startsWith('-'))) {
    console.error(`spec:changelog: one or two revisions (${USAGE})`);
    return 2;
  }
  const [from = '', to] = argv;
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
        documents: { before, after },
      })}`,
    );
    return 0;
  } catch (err) {
    if (!(err instanceof CannotCompare)) throw err;
    console.error(`spec:changelog: ${err.message}`);
    return 2;
  }
}

await runMain(main, import.meta.url);
