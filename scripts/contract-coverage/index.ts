// npm test's last step: the contract coverage of the suite that just ran. For every operation of
// openapi.yaml, each documented response (status and media type), each oneOf alternative of its
// request body and each enum value of its parameters: exercised or not, and by which tests (the
// records test/support/runner/contract-recorder.ts wrote, in the suite's test servers). Prints a short table, writes
// test-output/contract-coverage.json, and exits 1 on anything documented that no test exercised or
// any response the server gave that the spec does not document, naming operation and status.
// Usage: tsx scripts/contract-coverage/index.ts [--reset]   (--reset: forget earlier runs' records)
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMain } from '../../server/run-main.js';
import { loadSpec } from '../../server/spec.js';
import { parseArgsOrMessage } from '../shared/cli-args.js';
import { COVERAGE_DIR, documentedItems, type Exercised } from './items.js';

export function main(argv: string[]): number {
  const options = parseArgsOrMessage({ args: argv, options: { reset: { type: 'boolean' } } });
  if (typeof options === 'string') {
    console.error(`contract-coverage: ${options} (usage: tsx scripts/contract-coverage/index.ts [--reset])`);
    return 2;
  }
  if (options.values.reset) {
    rmSync(COVERAGE_DIR, { recursive: true, force: true });
    return 0;
  }
  return report();
}

/** Prints the table and the gaps, writes the JSON detail; 1 on any gap or without records. */
function report(): number {
  const spec = loadSpec();

  const records: Exercised[] = existsSync(COVERAGE_DIR)
    ? readdirSync(COVERAGE_DIR).flatMap(
        (file) => JSON.parse(readFileSync(join(COVERAGE_DIR, file), 'utf8')) as Exercised[],
      )
    : [];
  const exercisedBy = new Map<string, Set<string>>();
  for (const { operationId, key, test } of records) {
    const id = `${operationId} ${key}`;
    if (!exercisedBy.has(id)) exercisedBy.set(id, new Set());
    exercisedBy.get(id)?.add(test);
  }

  const expected = documentedItems(spec);
  const report = [...expected].map(([operationId, keys]) => ({
    operationId,
    items: keys.map((key) => ({ key, exercisedBy: [...(exercisedBy.get(`${operationId} ${key}`) ?? [])].sort() })),
  }));
  const undocumented = [
    ...new Set(
      records
        .filter(({ operationId, key }) => key.startsWith('response ') && !expected.get(operationId)?.includes(key))
        .map(({ operationId, key, test }) => `${operationId}: ${key} (by ${test})`),
    ),
  ];
  const missing = report.flatMap(({ operationId, items }) =>
    items.filter((item) => item.exercisedBy.length === 0).map((item) => `${operationId}: ${item.key}`),
  );

  const total = report.reduce((sum, { items }) => sum + items.length, 0);
  const covered = total - missing.length;
  writeFileSync(
    join(COVERAGE_DIR, '..', 'contract-coverage.json'),
    `${JSON.stringify({ covered, total, operations: report, undocumented }, null, 2)}\n`,
  );
  const lines = [
    '',
    'Contract coverage (test-output/contract-coverage.json):',
    '| operation | documented | exercised |',
    '|---|---|---|',
    ...report.map(
      ({ operationId, items }) =>
        `| ${operationId} | ${items.length} | ${items.filter((item) => item.exercisedBy.length > 0).length} |`,
    ),
    `${covered} of ${total} exercised (${total === 0 ? 100 : Math.floor((covered / total) * 100)}%).`,
  ];
  console.log(lines.join('\n'));
  for (const line of missing) console.error(`documented, but no test exercises it: ${line}`);
  for (const line of undocumented) console.error(`produced, but openapi.yaml does not document it: ${line}`);
  if (records.length === 0) console.error('no records: run the suite first (npm test runs it, then this).');
  return missing.length > 0 || undocumented.length > 0 || records.length === 0 ? 1 : 0;
}

await runMain(main, import.meta.url);
