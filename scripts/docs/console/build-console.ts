// Builds the console into dist/docs/try/: Swagger UI's bundle and stylesheet as the swagger-ui-dist
// package ships them, the console's page and stylesheet, and console.js: the code in page/ bundled
// by esbuild with the console's copy of the spec and the body validators compiled from it.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { consoleFolder } from '../../../server/docs-folders.js';
import { projectRoot } from '../../../server/project-root.js';
import { type OpenApiDocument, specOperations } from '../../../server/spec.js';
import { bodyValidatorsModule } from './body-validators.js';
import { BASE_URL_FORM_ID, CONSOLE_ELEMENT_ID, consolePage, OPERATION_PARAMETER } from './console-page.js';
import { CONDITION_HEADER, consoleSpec } from './console-spec.js';
import { consoleStyle } from './console-style.js';

const require = createRequire(import.meta.url);
const swaggerUiDir = dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_UI_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css'];
const VALIDATORS = 'console:body-validators';
// The page's sources in the checkout: `npm start` runs this module compiled, from dist/.
const sourceDir = join(projectRoot, 'scripts', 'docs', 'console');

async function consoleScript(contract: OpenApiDocument): Promise<string> {
  const spec = consoleSpec(contract);
  const conditional = specOperations(spec)
    .filter(({ parameters }) =>
      parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === CONDITION_HEADER.toLowerCase()),
    )
    .map(({ method, template }) => `${method} ${template}`);
  const inputs = {
    spec,
    conditional,
    conditionHeader: CONDITION_HEADER,
    elementId: CONSOLE_ELEMENT_ID,
    baseUrlFormId: BASE_URL_FORM_ID,
    operationParameter: OPERATION_PARAMETER,
  };
  const entry = [
    `import { startConsole } from './page/main.ts';`,
    `import * as validators from '${VALIDATORS}';`,
    `startConsole({ ...${JSON.stringify(inputs)}, validators });`,
  ].join('\n');
  const result = await build({
    stdin: { contents: entry, resolveDir: sourceDir, loader: 'ts' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'body-validators',
        setup(plugin) {
          plugin.onResolve({ filter: new RegExp(`^${VALIDATORS}$`) }, () => ({
            path: VALIDATORS,
            namespace: 'console',
          }));
          plugin.onLoad({ filter: /.*/, namespace: 'console' }, () => ({
            contents: bodyValidatorsModule(spec),
            loader: 'js',
            resolveDir: projectRoot,
          }));
        },
      },
    ],
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('docs: esbuild wrote no console script');
  return output.text;
}

/** Writes the console beside the docs page, in its folder of outputDir. */
export async function buildConsole(contract: OpenApiDocument, outputDir: string): Promise<void> {
  const dir = join(outputDir, consoleFolder);
  mkdirSync(dir, { recursive: true });
  for (const file of SWAGGER_UI_FILES) copyFileSync(join(swaggerUiDir, file), join(dir, file));
  writeFileSync(join(dir, 'console.js'), await consoleScript(contract));
  writeFileSync(join(dir, 'console.css'), consoleStyle);
  writeFileSync(join(dir, 'index.html'), consolePage(contract.info.title));
}
