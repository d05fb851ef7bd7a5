// Runs the consumer workflows with Redocly's `respect` against a deployment. The inputs (keys
// among them) and the server reach it through its environment, never its command line, which
// other users of the machine can read; the keys are `format: password` inputs, which it masks
// in all it prints.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { projectRoot } from '../../server/project-root.js';
import { collectOutput, type Finished } from '../shared/child-process.js';
import { WORKFLOWS_FILE } from './arazzo.js';

const require = createRequire(import.meta.url);
const cli = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

/** The name of the OpenAPI source description in the workflows file, which `--server` points at the deployment. */
export const SOURCE_NAME = 'api';

export interface RespectRun {
  baseUrl: string;
  inputs: Record<string, string>;
  /** The workflows to run; every workflow of the file when absent. */
  workflows?: string[];
  file?: string;
}

export function runRespect({ baseUrl, inputs, workflows, file = WORKFLOWS_FILE }: RespectRun): Promise<Finished> {
  const child = spawn(process.execPath, [cli, 'respect', file, ...(workflows ?? []).flatMap((id) => ['-w', id])], {
    cwd: projectRoot,
    env: {
      ...process.env,
      REDOCLY_TELEMETRY: 'off',
      REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
      REDOCLY_CLI_RESPECT_INPUT: Object.entries(inputs)
        .map(([name, value]) => `${name}=${value}`)
        .join(','),
      REDOCLY_CLI_RESPECT_SERVER: `${SOURCE_NAME}=${baseUrl}`,
    },
  });
  child.stdin.end();
  return collectOutput(child);
}
