// Builds dist/docs/index.html with Redocly, then makes it render with no network: the renderer
// that the page would load from a CDN is the same version Redocly CLI ships, copied beside it,
// without the Redocly logo it would otherwise fetch from a CDN. Redocly's own output (its notices
// included) is shown only when it fails: a build that works prints one line.
// The page is built from the docs' copy of the contract (spec-for-docs.ts) with Redoc's options
// (redoc-options.ts), and gets a few rules of style of its own (page-style.ts).
// Beside it, changelog.html: every change of the contract from its git history, and
// workflows.html: the consumer workflows of arazzo/, both linked from the introduction of the docs'
// copy of the spec; and the console (console/), in try/, linked from each operation.
// Usage: npm run docs [-- --if-stale]; `npm start` calls buildDocs({ ifStale: true }).
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { consoleFolder, docsDir as outputDir } from '../../server/docs-folders.js';
import { projectRoot as root } from '../../server/project-root.js';
import { runMain } from '../../server/run-main.js';
import { type OpenApiDocument, parseSpecYaml } from '../../server/spec.js';
import { parseArgsOrMessage } from '../shared/cli-args.js';
import { loadWorkflows, WORKFLOWS_FILE } from '../workflows/arazzo.js';
import { pageStyle } from './page-style.js';
import { hashRouteLinks } from './route-links.js';
import { WORKFLOWS_PAGE } from './workflows-page.js';

const outputFile = join(outputDir, 'index.html');
const require = createRequire(import.meta.url);
const cliRoot = dirname(require.resolve('@redocly/cli/package.json'));
const renderer = join(cliRoot, 'lib', 'chunks', 'redoc.standalone.js');
const RENDERER_NAME = 'redoc.standalone.js';
const changelogFile = join(outputDir, 'changelog.html');
const workflowsFile = join(outputDir, WORKFLOWS_PAGE);
// The console's page (console/build-console.ts), and the Swagger UI it is built with.
const consoleFile = join(outputDir, consoleFolder, 'index.html');
const swaggerUi = join(dirname(require.resolve('swagger-ui-dist/package.json')), 'swagger-ui-bundle.js');

/** The newest commit that changed openapi.yaml ('' outside a git checkout). */
function newestSpecCommit(): string {
  try {
    return execFileSync('git', ['log', '-1', '--format=%H', '--', 'openapi.yaml'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return '';
  }
}

/** Whether the page is newer than everything it is built from. */
function docsAreFresh(): boolean {
  const inputs = [
    join(root, 'openapi.yaml'),
    // This folder (the build, the samples, the renderer's options), the changelog with what it
    // classes changes by, the workflows page's reading of arazzo/, and what they share.
    ...['docs', 'spec-diff', 'workflows', 'shared'].flatMap((dir) =>
      readdirSync(join(root, 'scripts', dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .map((file) => join(root, 'scripts', dir, file)),
    ),
    renderer,
    swaggerUi,
    WORKFLOWS_FILE,
  ];
  const outputs = [outputFile, join(outputDir, RENDERER_NAME), changelogFile, workflowsFile, consoleFile];
  if (!outputs.every(existsSync)) return false;
  const newestInput = Math.max(...inputs.map((file) => statSync(file).mtimeMs));
  if (Math.min(...outputs.map((file) => statSync(file).mtimeMs)) <= newestInput) return false;
  // The changelog is built from the history: a commit of openapi.yaml since makes it stale.
  const upTo = /<meta name="upTo" content="([^"]*)">/.exec(readFileSync(changelogFile, 'utf8'))?.[1];
  return upTo === newestSpecCommit();
}

/** The docs' copy of the contract (spec-for-docs.ts) and Redoc's options, written to `dir`. */
async function docsInputs(contract: OpenApiDocument, dir: string): Promise<{ spec: string; options: string }> {
  // Loaded here, not at the top: `npm start` imports this module to check that the docs are fresh.
  const [{ specForDocs }, { redocOptions }] = await Promise.all([
    import('./spec-for-docs.js'),
    import('./redoc-options.js'),
  ]);
  const spec = join(dir, 'openapi.json');
  const options = join(dir, 'redoc-options.json');
  writeFileSync(spec, JSON.stringify(specForDocs(contract)));
  writeFileSync(options, JSON.stringify(redocOptions));
  return { spec, options };
}

function runRedocly(args: string[]): void {
  try {
    execFileSync(process.execPath, [join(cliRoot, 'bin', 'cli.js'), ...args], {
      cwd: root,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: Buffer; stderr?: Buffer };
    process.stderr.write(`${stdout ?? ''}${stderr ?? ''}`);
    throw new Error(`docs: redocly ${args[0]} failed (its output is above)`);
  }
}

/** Builds the docs; with ifStale, only when the pages are older than what they are built from. */
export async function buildDocs({ ifStale }: { ifStale: boolean }): Promise<void> {
  if (ifStale && docsAreFresh()) return;
  mkdirSync(outputDir, { recursive: true });
  const contract = parseSpecYaml(readFileSync(join(root, 'openapi.yaml'), 'utf8')) as OpenApiDocument;
  const scratch = mkdtempSync(join(tmpdir(), 'docs-'));
  try {
    const { spec, options } = await docsInputs(contract, scratch);
    runRedocly(['build-docs', spec, '--openapi', options, '-o', outputFile]);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  const rendererVersion = /Version: (\S+)/.exec(readFileSync(renderer, 'utf8').slice(0, 400))?.[1];
  let html = readFileSync(outputFile, 'utf8');
  const cdnPattern = /https:\/\/cdn\.redocly\.com\/redoc\/v([^/]+)\/bundles\/redoc\.standalone\.js/g;
  const wanted = new Set([...html.matchAll(cdnPattern)].map((match) => match[1]));
  if (wanted.size !== 1 || !wanted.has(rendererVersion ?? '')) {
    throw new Error(`the page wants renderer ${[...wanted].join(', ')}, Redocly CLI ships ${rendererVersion}`);
  }
  html = hashRouteLinks(html)
    .replace(/\s+integrity="[^"]*"/g, '')
    .replace(/\s+crossorigin="anonymous"/g, '')
    .replace(cdnPattern, `./${RENDERER_NAME}`)
    .replace('</head>', `<style>\n${pageStyle}\n</style>\n</head>`);
  // Anything the browser would fetch by itself: scripts, stylesheets, modules, fonts and images.
  const remote =
    /<script[^>]+src="https?:[^"]*"|<link[^>]+href="https?:[^"]*"|from\s+["']https?:[^"']*|url\(\s*["']?https?:[^)]*/.exec(
      html,
    );
  if (remote) throw new Error(`the page still loads something remote: ${remote[0]}`);
  writeFileSync(outputFile, html);
  // The sidebar's "powered by" logo is an image on Redocly's CDN: an empty image in its place.
  const logoPattern = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g;
  const rendererSource = readFileSync(renderer, 'utf8');
  if (!logoPattern.test(rendererSource))
    throw new Error(`the renderer ${rendererVersion} no longer has the logo this drops`);
  const withoutLogo = rendererSource.replace(
    logoPattern,
    "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'/>",
  );
  const cdn = /https:\/\/cdn\.redoc\.ly\/[^`'"\s]*/.exec(withoutLogo);
  if (cdn) throw new Error(`the renderer still loads something from a CDN: ${cdn[0]}`);
  writeFileSync(join(outputDir, RENDERER_NAME), withoutLogo);
  const { changelogPage } = await import('../spec-diff/changelog-page.js');
  writeFileSync(changelogFile, (await changelogPage(contract.info.title)).html);
  const { workflowsPage } = await import('./workflows-page.js');
  writeFileSync(workflowsFile, workflowsPage(contract, loadWorkflows()));
  const { buildConsole } = await import('./console/build-console.js');
  await buildConsole(contract, outputDir);
  console.log(
    `docs: ${outputFile}, changelog.html, ${WORKFLOWS_PAGE} and the console in try/ (renderer ${rendererVersion}, served locally)`,
  );
}

/** `npm run docs [-- --if-stale]`: 0 when the docs are built (or fresh), 1 when the build fails, 2 on a bad argument. */
export async function main(argv: string[]): Promise<number> {
  const parsed = parseArgsOrMessage({ args: argv, options: { 'if-stale': { type: 'boolean' } }, strict: true });
  if (typeof parsed === 'string') {
    console.error(`docs: ${parsed} (usage: npm run docs [-- --if-stale])`);
    return 2;
  }
  try {
    await buildDocs({ ifStale: parsed.values['if-stale'] === true });
    return 0;
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    return 1;
  }
}

await runMain(main, import.meta.url);
