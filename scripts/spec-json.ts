// Writes generated/openapi.json, the contract in JSON. Unlike the TypeScript types, it carries
// every constraint, so `--check` fails as soon as any part of openapi.yaml changes without a
// regeneration.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../server/project-root.js';
import { runMain } from '../server/run-main.js';
import { parseSpecYaml, specPath } from '../server/spec.js';
import { parseArgsOrMessage } from './shared/cli-args.js';

const outputPath = join(projectRoot, 'generated', 'openapi.json');

export function main(argv: string[]): number {
  const options = parseArgsOrMessage({ args: argv, options: { check: { type: 'boolean' } } });
  if (typeof options === 'string') {
    console.error(`spec-json: ${options} (usage: tsx scripts/spec-json.ts [--check])`);
    return 2;
  }
  const expected = `${JSON.stringify(parseSpecYaml(readFileSync(specPath, 'utf8')), null, 2)}\n`;
  if (!options.values.check) {
    writeFileSync(outputPath, expected);
    console.log('wrote generated/openapi.json');
    return 0;
  }
  let current = '';
  try {
    current = readFileSync(outputPath, 'utf8');
  } catch {
    // a missing file is stale too
  }
  if (current !== expected) {
    console.error('generated/openapi.json is not up to date with openapi.yaml: run `npm run generate`.');
    return 1;
  }
  console.log('generated/openapi.json is up to date.');
  return 0;
}

await runMain(main, import.meta.url);
