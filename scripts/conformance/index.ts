// npm run conformance: holds a deployment to openapi.yaml with generated requests, valid and
// invalid, and checks every answer. Exit 0 when every answer keeps the contract, 1 on any failure,
// 2 when the run cannot start (bad arguments, no contact, a key or object the deployment refuses).

import { runMain } from '../../server/run-main.js';
import { parseArgsOrMessage } from '../shared/cli-args.js';
import { loadContract } from './contract.js';
import { DEPLOYMENT_OPTIONS, deploymentOf } from './deployment-options.js';
import { CannotRun, type RunOptions } from './exchange.js';
import { formatReport, type ReportFormat } from './report.js';
import { runConformance } from './run.js';
import { KEY_VARIABLE, STANDARD_KEY_VARIABLE } from './send.js';

const USAGE = `usage: npm run conformance -- --url <base URL> --key <management key> [options]

Sends requests generated from openapi.yaml to a deployment and checks every answer against it:
its status is documented for the operation, its body and headers match their schemas, an error
is the envelope, a 400 names the field that was broken.

  --url <base URL>        where the spec's paths are served, e.g. http://127.0.0.1:3000/api/v1
  --key <key>             a management key of the deployment (or $${KEY_VARIABLE}); never printed
  --standard-key <key>    a standard key of the same workspace (or $${STANDARD_KEY_VARIABLE}): the 403s
  --destination <id>      a destination the run may write to: valid PATCHes, the If-Match sequence
  --preset <slug>         a preset to list: its pages must add up to total_count
  --negative              also send every request that breaks one keyword of one parameter or field,
                          and the HTTP checks: what RFC 9110, 9111, 9112 and 6750 ask of the answers
                          to requests no schema describes (a target in absolute form, a corrupt gzip
                          body, the auth challenges, Cache-Control, If-None-Match)
  --requests <n>          at least n requests per operation (default 100)
  --seed <n>              the seed of the generated requests (default: random, printed)
  --case <i>              send only the generated request i of the seed's run (a failure's replay)
  --format <f>            text (default), json or junit

What it writes: only PATCH writes, and only to --destination: its fields are overwritten with
generated values (its name is put back). Without --destination every PATCH goes to a destination
id no workspace has, and is answered 400 or 404 without a write. Nothing else is changed.`;

const FORMATS: readonly ReportFormat[] = ['text', 'json', 'junit'];

function positiveInteger(value: string | undefined, name: string, fallback: number): number | string {
  if (value === undefined) return fallback;
  return /^\d+$/.test(value) && Number(value) > 0 ? Number(value) : `${name} takes a positive integer, not ${value}`;
}

function options(argv: string[]): { run: RunOptions; format: ReportFormat } | string {
  const parsed = parseArgsOrMessage({
    args: argv,
    options: {
      ...DEPLOYMENT_OPTIONS,
      negative: { type: 'boolean', default: false },
      requests: { type: 'string' },
      seed: { type: 'string' },
      case: { type: 'string' },
      format: { type: 'string', default: 'text' },
      help: { type: 'boolean', default: false },
    },
  });
  if (typeof parsed === 'string') return parsed;
  const { values } = parsed;
  if (values.help) return '';
  const deployment = deploymentOf(values);
  if (typeof deployment === 'string') return deployment;
  const format = values.format as ReportFormat;
  if (!FORMATS.includes(format)) return `--format takes ${FORMATS.join(', ')}, not ${values.format}`;
  const requests = positiveInteger(values.requests, '--requests', 100);
  const seed =
    values.seed === undefined
      ? Math.floor(Math.random() * 2 ** 31)
      : /^\d+$/.test(values.seed)
        ? Number(values.seed)
        : `--seed takes a whole number, not ${values.seed}`;
  const only =
    values.case === undefined
      ? undefined
      : /^\d+$/.test(values.case)
        ? Number(values.case)
        : `--case takes an index, not ${values.case}`;
  for (const value of [requests, seed, only]) if (typeof value === 'string') return value;
  return {
    format,
    run: {
      ...deployment,
      negative: values.negative,
      requests: requests as number,
      seed: seed as number,
      ...(only !== undefined && { only: only as number }),
    },
  };
}

export async function main(argv: string[]): Promise<number> {
  const parsed = options(argv);
  if (parsed === '') {
    console.log(USAGE);
    return 0;
  }
  if (typeof parsed === 'string') {
    console.error(`conformance: ${parsed} (npm run conformance -- --help)`);
    return 2;
  }
  try {
    const result = await runConformance(loadContract(), parsed.run);
    console.log(formatReport(parsed.format, result, parsed.run));
    return result.stopped || result.outcomes.some((outcome) => outcome.problems.length > 0) ? 1 : 0;
  } catch (err) {
    if (!(err instanceof CannotRun)) throw err;
    console.error(`conformance: ${err.message}`);
    return 2;
  }
}

await runMain(main, import.meta.url);
