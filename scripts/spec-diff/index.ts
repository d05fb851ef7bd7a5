// npm run spec:diff -- [ref] [--allow-missing] [--fail-on error|warning] [--format text|json|markdown]:
// openapi.yaml at a git ref (default: the previous commit) against the working copy. Prints the
// changes (format/report.ts) with their level (error, warning, info) and rule ids (engine/rules.ts);
// exits 1 on an error (or a warning, with --fail-on warning) unless info.version has a new major version.
import { runMain } from '../../server/run-main.js';
import { parseArgsOrMessage } from '../shared/cli-args.js';
import { loadWorkflows } from '../workflows/arazzo.js';
import { majorVersion, specChanges } from './engine/compare.js';
import { FORMATS, type Format, report } from './format/report.js';
import { CannotCompare, specAt, versionOf, WORKING_COPY, workingSpec } from './revisions.js';
import { workflowBreaks } from './workflows.js';

// Exit codes: 0 nothing fails the gate, 1 an error (or warning) without a new major version, 2
// cannot compare (a bad argument, an unknown ref, a revision without openapi.yaml, YAML that does
// not parse).
const USAGE =
  'usage: npm run spec:diff -- [ref] [--allow-missing] [--fail-on error|warning] [--format text|json|markdown]';

function cannotCompare(why: string): number {
  console.error(`spec:diff: ${why}`);
  return 2;
}

export async function main(argv: string[]): Promise<number> {
  const options = parseArgsOrMessage({
    args: argv,
    allowPositionals: true,
    options: {
      'allow-missing': { type: 'boolean' },
      'fail-on': { type: 'string', default: 'error' },
      format: { type: 'string', default: 'text' },
    },
  });
  if (typeof options === 'string') return cannotCompare(`${options} (${USAGE})`);
  if (options.positionals.length > 1) return cannotCompare(`one ref at most (${USAGE})`);
  const failOn = options.values['fail-on'] ?? 'error';
  if (failOn !== 'error' && failOn !== 'warning')
    return cannotCompare(`--fail-on takes error or warning (got ${JSON.stringify(failOn)})`);
  const format = (options.values.format ?? 'text') as Format;
  if (!FORMATS.includes(format))
    return cannotCompare(`--format takes ${FORMATS.join(', ')} (got ${JSON.stringify(format)})`);
  const ref = options.positionals[0] ?? 'HEAD~1';

  try {
    const before = specAt(ref);
    if (!before) {
      if (options.values['allow-missing']) {
        console.log(`spec:diff: ${ref} has no openapi.yaml; nothing to compare (--allow-missing).`);
        return 0;
      }
      return cannotCompare(
        `${ref} has no openapi.yaml to compare with (pass --allow-missing for the contract's first commit)`,
      );
    }
    const after = workingSpec();
    const contractChanges = await specChanges(before, after);
    const changes = [...contractChanges, ...workflowBreaks(contractChanges, before, loadWorkflows())];
    console.log(
      report(format, {
        from: { label: ref, version: versionOf(before) },
        to: { label: WORKING_COPY, version: versionOf(after) },
        changes,
        documents: { before, after },
      }),
    );
    const failing = changes.filter((c) => c.level === 'error' || (failOn === 'warning' && c.level === 'warning'));
    const bumped = majorVersion(after) > majorVersion(before);
    if (failing.length > 0 && format === 'text')
      console.log(
        bumped
          ? `info.version goes to a new major (${versionOf(after)}): the ${failing.length} failing change(s) are allowed.`
          : `${failing.length} change(s) at level ${failOn} or above without a new major info.version: failing.`,
      );
    return failing.length > 0 && !bumped ? 1 : 0;
  } catch (err) {
    if (err instanceof CannotCompare) return cannotCompare(err.message);
    throw err;
  }
}

await runMain(main, import.meta.url);
