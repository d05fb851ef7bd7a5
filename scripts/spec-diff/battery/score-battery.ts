// npm run spec:diff:battery: the battery of edits (battery.ts, written from oasdiff v1.28.0's rule
// registry) through spec:diff's engine, and through api-smart-diff, the maintained library it was
// weighed against. Coarse scores for both: an error edit flagged breaking, a warning edit flagged
// (breaking, deprecated or unclassified for api-smart-diff, which has no warning level; warning or
// error for spec:diff), a compatible edit not flagged breaking. Strict score for spec:diff only:
// every expected oasdiff rule id at its level. Then coverage of oasdiff's registry: how many of its
// rule ids the battery expects, and how many spec:diff raised. `--missing` lists the ids never raised.
// Last, the pairs written after oasdiff's own fixtures. Exit codes: 0 scored, 2 a bad argument.
import { apiCompare } from 'api-smart-diff';
import { runMain } from '../../../server/run-main.js';
import { parseArgsOrMessage } from '../../shared/cli-args.js';
import { OASDIFF_RELEASE, OASDIFF_RULES } from '../engine/oasdiff-rules.js';
import { LEVELS, type Level } from '../engine/rules.js';
import { BATTERY, coarse, documentsOf, runSpecDiff } from './battery-score.js';
import { FIXTURES } from './fixtures.js';
import { isBreaking } from './fixtures-kit.js';
import { scoreFixture } from './fixtures-score.js';

const tally = () => ({ error: [0, 0], warning: [0, 0], info: [0, 0] }) as Record<Level, [number, number]>;
const cell = ([hit, all]: [number, number]) => `${hit}/${all}`;

/** The battery through both engines, and the coverage of oasdiff's rule ids; `missing` lists those never raised. */
async function scoreBattery(missing: boolean): Promise<void> {
  const ours = tally();
  const theirs = tally();
  const strict: [number, number] = [0, 0];
  const withIds: [number, number] = [0, 0];
  const misses: string[] = [];
  const raised = new Set<string>();
  for (const edit of BATTERY) {
    const result = await runSpecDiff(edit);
    for (const id of result.ids) raised.add(id);
    const ourVerdict = coarse(edit, result.highest === 'error', result.highest !== 'info');
    const [before, after] = documentsOf(edit);
    const { diffs } = apiCompare(before, after);
    const theirVerdict = coarse(
      edit,
      diffs.some((d) => d.type === 'breaking'),
      diffs.some((d) => d.type === 'breaking' || d.type === 'deprecated' || d.type === 'unclassified'),
    );
    for (const [score, verdict] of [
      [ours, ourVerdict],
      [theirs, theirVerdict],
    ] as const) {
      score[edit.level][1]++;
      if (verdict) score[edit.level][0]++;
    }
    strict[1]++;
    if (result.strict) strict[0]++;
    withIds[1]++;
    if (result.missing.length === 0) withIds[0]++;
    if (!ourVerdict || !result.strict)
      misses.push(`spec:diff misses (${edit.level}) ${edit.name}: ${result.ids.join(', ')}`);
    if (!theirVerdict)
      misses.push(
        `api-smart-diff misses (${edit.level}) ${edit.name}: ${[...new Set(diffs.map((d) => d.type))].join(', ')}`,
      );
  }
  const label: Record<Level, string> = {
    error: 'errors caught',
    warning: 'warnings flagged',
    info: 'compatible passed',
  };
  const all = Object.keys(OASDIFF_RULES);
  const expected = new Set(BATTERY.flatMap((edit) => edit.ids).filter((id) => id in OASDIFF_RULES));
  const raisedOasdiff = all.filter((id) => raised.has(id));
  console.log(`| engine | ${LEVELS.map((l) => label[l]).join(' | ')} | expected ids at their levels |`);
  console.log('|---|---|---|---|---|');
  console.log(`| spec:diff | ${LEVELS.map((l) => cell(ours[l])).join(' | ')} | ${cell(withIds)} |`);
  console.log(`| api-smart-diff 1.0.6 | ${LEVELS.map((l) => cell(theirs[l])).join(' | ')} | (none) |`);
  console.log('');
  console.log(`edits: ${BATTERY.length}; passing strictly (class and ids): ${cell(strict)}`);
  console.log(`oasdiff ${OASDIFF_RELEASE} rule ids expected by the battery: ${expected.size} of ${all.length}`);
  console.log(
    `oasdiff ${OASDIFF_RELEASE} rule ids spec:diff raised on the battery: ${raisedOasdiff.length} of ${all.length}`,
  );
  for (const miss of misses) console.log(miss);
  if (missing)
    for (const id of all.filter((id) => !raised.has(id))) console.log(`never raised: ${id} (${OASDIFF_RULES[id]})`);
}

// The pairs written after oasdiff's own fixtures (fixtures.ts): asserted ids, at their levels, and
// the gate on the pairs whose test runs all of oasdiff's checks.
async function scoreFixtures(): Promise<void> {
  const fixtureScore: Record<'ids' | 'levels' | 'breaking' | 'passing', [number, number]> = {
    ids: [0, 0],
    levels: [0, 0],
    breaking: [0, 0],
    passing: [0, 0],
  };
  for (const pair of FIXTURES) {
    const result = await scoreFixture(pair);
    fixtureScore.ids[0] += result.idsFound.length;
    fixtureScore.levels[0] += result.levelsMet.length;
    fixtureScore.ids[1] += pair.ids.length;
    fixtureScore.levels[1] += pair.ids.length;
    if (pair.checks === 'all') {
      const tally = isBreaking(pair) ? fixtureScore.breaking : fixtureScore.passing;
      tally[1]++;
      if (result.gateAgrees) tally[0]++;
    }
    if (result.levelsMet.length < pair.ids.length || result.gateAgrees === false || result.unexpected.length > 0)
      console.log(`spec:diff misses ${pair.title}: ${result.reported.join(', ')}`);
  }
  console.log('');
  console.log(
    `pairs after oasdiff's fixtures: ${FIXTURES.length}; asserted ids found ${cell(fixtureScore.ids)}, at their levels ${cell(fixtureScore.levels)}; all-checks pairs: breaking ones failing the gate ${cell(fixtureScore.breaking)}, others passing it ${cell(fixtureScore.passing)}`,
  );
}

const USAGE = 'usage: npm run spec:diff:battery -- [--missing]';

export async function main(argv: string[]): Promise<number> {
  const options = parseArgsOrMessage({ args: argv, options: { missing: { type: 'boolean', default: false } } });
  if (typeof options === 'string') {
    console.error(`spec:diff:battery: ${options} (${USAGE})`);
    return 2;
  }
  await scoreBattery(options.values.missing);
  await scoreFixtures();
  return 0;
}

await runMain(main, import.meta.url);
