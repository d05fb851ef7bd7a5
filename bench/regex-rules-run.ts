// npm run bench:regex-rules [-- --count n]: what checking the patterns of `regex` filter rules
// (openapi.yaml, RegexFilterRule) costs a PATCH on the built server in production mode: server CPU
// per request of one regex rule against one equality rule, of a body at the byte limit of short
// patterns against the same rules as equality rules (the plain PATCH of that size), and of bodies
// at the limit made of the patterns costliest to check; the table for BENCHMARKS.md ("Regular
// expressions in filter rules").

import { parseArgsOrMessage } from '../scripts/shared/cli-args.js';
import { BODY_LIMIT_BYTES } from '../server/request-pipeline.js';
import { runMain } from '../server/run-main.js';
import { loadSpec, operationPath } from '../server/spec.js';
import { BUILD_SCRIPTS, seededServer } from './shared/hostile.js';
import { describeStatuses, measure } from './shared/hostile-driver.js';
import type { HostileRequest } from './shared/hostile-vectors.js';
import { serverNodeFlags, stopServer } from './shared/processes.js';
import { regexRuleBodies } from './shared/regex-rule-bodies.js';

const USAGE = 'npm run bench:regex-rules [-- --count n]';

export async function main(argv: string[]): Promise<number> {
  const parsed = parseArgsOrMessage({ args: argv, options: { count: { type: 'string', default: '20' } } });
  if (typeof parsed === 'string') {
    console.error(`bench:regex-rules: ${parsed} (usage: ${USAGE})`);
    return 2;
  }
  const count = Number(parsed.values.count);
  if (!Number.isInteger(count) || count < 1) {
    console.error(`bench:regex-rules: --count must be a positive integer (usage: ${USAGE})`);
    return 2;
  }
  const spec = loadSpec();
  const bodies = regexRuleBodies(spec, BODY_LIMIT_BYTES);
  const { server, target } = await seededServer(BUILD_SCRIPTS(serverNodeFlags));
  try {
    const path = operationPath(spec, 'updateObservabilityDestination', { id: target.destinationId });
    const request = (body: string): HostileRequest => ({
      method: 'PATCH',
      path,
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        authorization: `Bearer ${target.managementKey}`,
      },
      body,
    });
    const cost = async (body: string) => {
      await measure(server, () => request(body), { count: 2, concurrency: 1 });
      const runs = [];
      for (let round = 0; round < 3; round++)
        runs.push(await measure(server, () => request(body), { count, concurrency: 1 }));
      const best = runs.reduce((a, b) => (b.cpuUs < a.cpuUs ? b : a));
      return { ms: best.cpuUs / 1000, statuses: describeStatuses(best.statuses) };
    };
    const lines = ['| body | bytes | rules | CPU ms/request | answers |', '|---|---|---|---|---|'];
    const row = async (shape: string, body: string, rules: number) => {
      const { ms, statuses } = await cost(body);
      lines.push(`| ${shape} | ${Buffer.byteLength(body)} | ${rules} | ${ms.toFixed(2)} | ${statuses} |`);
      console.error(lines.at(-1));
    };
    await row('one equality rule', bodies.oneEqualityRule, 1);
    await row('one regex rule', bodies.oneRegexRule, 1);
    await row(
      'equality rules at the limit (the plain PATCH)',
      bodies.literalEqualityRules.body,
      bodies.literalEqualityRules.rules,
    );
    await row(
      'regex rules at the limit, short literal patterns',
      bodies.literalRegexRules.body,
      bodies.literalRegexRules.rules,
    );
    for (const { shape, body, rules } of bodies.costly) await row(`regex rules at the limit: ${shape}`, body, rules);
    console.log(lines.join('\n'));
    return 0;
  } finally {
    await stopServer(server);
  }
}

await runMain(main, import.meta.url);
