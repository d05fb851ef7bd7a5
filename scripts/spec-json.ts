// Writes generated/openapi.json, the contract in JSON. Unlike the TypeScript types, it carries
// every constraint, so `--check` fails as soon as any part of openapi.yaml changes without a
// regeneration.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseSpecYaml } from '../server/spec.js';

const specPath = fileURLToPath(new URL('../openapi.yaml', import.meta.url));
const outputPath = fileURLToPath(new URL('../generated/openapi.json', import.meta.url));

const expected = `${JSON.stringify(parseSpecYaml(readFileSync(specPath, 'utf8')), null, 2)}\n`;

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(outputPath, 'utf8');
  } catch {
    // a missing file is stale too
  }
  if (current !== expected) {
    console.error('generated/openapi.json is not up to date with openapi.yaml: run `npm run generate`.');
    process.exit(1);
  }
  console.log('generated/openapi.json is up to date.');
} else {
  writeFileSync(outputPath, expected);
  console.log('wrote generated/openapi.json');
}
