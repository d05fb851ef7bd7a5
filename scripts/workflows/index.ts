// npm run workflows: runs the consumer workflows of arazzo/workflows.arazzo.yaml against a
// deployment with Redocly's `respect`, which checks each step's status, content type and body
// against openapi.yaml and the workflow's own success criteria. Exit 0 when every check passes,
// 1 on any failed check, 2 when the run cannot start (bad arguments, no contact, a key or object
// the deployment refuses). The options, the keys' environment variables and the exit codes are
// the conformance command's.
import { hashApiKey } from '../../server/domain/api-keys.js';
import { runMain } from '../../server/run-main.js';
import { loadContract } from '../conformance/contract.js';
import { DEPLOYMENT_OPTIONS, deploymentOf } from '../conformance/deployment-options.js';
import { CannotRun } from '../conformance/exchange.js';
import { type KnownObjects, preflight } from '../conformance/run.js';
import { KEY_VARIABLE, STANDARD_KEY_VARIABLE } from '../conformance/send.js';
import { parseArgsOrMessage } from '../shared/cli-args.js';
import { loadWorkflows } from './arazzo.js';
import { runRespect } from './respect.js';

const USAGE = `usage: npm run workflows -- --url <base URL> --key <management key> [options]

Runs the consumer workflows of arazzo/workflows.arazzo.yaml against a deployment, step by step,
with Redocly's respect: each answer's status, content type and body are checked against
openapi.yaml, and each step's success criteria against the workflow.

  --url <base URL>        where the spec's paths are served, e.g. http://127.0.0.1:3000/api/v1
  --key <key>             a management key of the deployment (or $${KEY_VARIABLE}); never printed
  --standard-key <key>    a standard key of the same workspace (or $${STANDARD_KEY_VARIABLE})
  --destination <id>      a destination the workflows may write to (its sampling rate)
  --preset <slug>         a preset of at least three versions to page through

A workflow that needs an option not given is skipped, and said so.`;

/** Where each input of the workflows comes from: an option, or the management key's hash. */
const INPUT_SOURCES: Record<string, string> = {
  managementKey: '--key',
  standardKey: '--standard-key',
  keyHash: '--key (its hash)',
  destinationId: '--destination',
  presetSlug: '--preset',
};

function options(argv: string[]): KnownObjects | string {
  const parsed = parseArgsOrMessage({
    args: argv,
    options: {
      ...DEPLOYMENT_OPTIONS,
      help: { type: 'boolean', default: false },
    },
  });
  if (typeof parsed === 'string') return parsed;
  const { values } = parsed;
  if (values.help) return '';
  // respect reads its inputs as one comma-separated list of name=value.
  for (const [option, value] of Object.entries({ '--destination': values.destination, '--preset': values.preset }))
    if (value !== undefined && /[,=]/.test(value)) return `${option} cannot hold ',' or '=', as ${value} does`;
  return deploymentOf(values);
}

/** The inputs of the workflows, by name, from what the run was given. */
function inputsOf(run: KnownObjects): Record<string, string> {
  const inputs: Record<string, string | undefined> = {
    managementKey: run.key,
    standardKey: run.standardKey,
    keyHash: hashApiKey(run.key),
    destinationId: run.destination,
    presetSlug: run.preset,
  };
  return Object.fromEntries(
    Object.entries(inputs).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

export async function main(argv: string[]): Promise<number> {
  const run = options(argv);
  if (run === '') {
    console.log(USAGE);
    return 0;
  }
  if (typeof run === 'string') {
    console.error(`workflows: ${run} (npm run workflows -- --help)`);
    return 2;
  }
  try {
    await preflight(loadContract(), run);
  } catch (err) {
    if (!(err instanceof CannotRun)) throw err;
    console.error(`workflows: ${err.message}`);
    return 2;
  }
  const inputs = inputsOf(run);
  const runnable: string[] = [];
  for (const workflow of loadWorkflows().workflows) {
    const missing = (workflow.inputs?.required ?? []).filter((name) => inputs[name] === undefined);
    if (missing.length === 0) runnable.push(workflow.workflowId);
    else
      console.log(
        `skipped ${workflow.workflowId}: it needs ${missing.map((name) => INPUT_SOURCES[name] ?? name).join(', ')}`,
      );
  }
  if (runnable.length === 0) {
    console.error('workflows: no workflow has every input it needs; give the options above');
    return 2;
  }
  const finished = await runRespect({ baseUrl: run.baseUrl, inputs, workflows: runnable });
  process.stdout.write(finished.stdout);
  process.stderr.write(finished.stderr);
  return finished.code === 0 ? 0 : 1;
}

await runMain(main, import.meta.url);
