// Builds dist/docs/index.html with Redocly, then makes it render with no network: the renderer
// that the page would load from a CDN is the same version Redocly CLI ships, copied beside it,
// without the Redocly logo it would otherwise fetch from a CDN. Redocly's own output (its notices
// included) is shown only when it fails: a build that works prints one line.
// Beside it, changelog.html: every change of the contract from its git history, linked from the
// introduction of the docs' copy of the spec.
// Usage: npm run docs [-- --if-stale]; `npm start` calls buildDocs({ ifStale: true }).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { docsDir as outputDir, projectRoot as root } from '../server/project-root.js';
import { type OpenApiDocument, parseSpecYaml } from '../server/spec.js';

const outputFile = join(outputDir, 'index.html');
const require = createRequire(import.meta.url);
const cliRoot = dirname(require.resolve('@redocly/cli/package.json'));
const renderer = join(cliRoot, 'lib', 'chunks', 'redoc.standalone.js');
const RENDERER_NAME = 'redoc.standalone.js';
const changelogFile = join(outputDir, 'changelog.html');

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
    // This script, the samples, and the changelog with what it classes changes by.
    ...[
      'build-docs.ts',
      'code-samples.ts',
      'spec-diff/changelog-page.ts',
      'spec-diff/engine/compare.ts',
      'spec-diff/engine/schema-compare.ts',
      'spec-diff/engine/rules.ts',
      'spec-diff/format/report.ts',
      'spec-diff/revisions.ts',
    ].map((file) => join(root, 'scripts', file)),
    renderer,
  ];
  const outputs = [outputFile, join(outputDir, RENDERER_NAME), changelogFile];
  if (!outputs.every(existsSync)) return false;
  const newestInput = Math.max(...inputs.map((file) => statSync(file).mtimeMs));
  if (Math.min(...outputs.map((file) => statSync(file).mtimeMs)) <= newestInput) return false;
  // The changelog is built from the history: a commit of openapi.yaml since makes it stale.
  const upTo = /<meta name="upTo" content="([^"]*)">/.exec(readFileSync(changelogFile, 'utf8'))?.[1];
  return upTo === newestSpecCommit();
}

/**
 * The contract as the docs show it: the file itself, with a curl and a TypeScript sample for each
 * operation (code-samples.ts) and a link to the changelog page in its introduction (only in the
 * docs: the published contract stays as written).
 */
async function specForDocs(contract: OpenApiDocument, dir: string): Promise<string> {
  // Loaded here, not at the top: `npm start` imports this module to check that the docs are fresh.
  const { withCodeSamples } = await import('./code-samples.js');
  const spec = withCodeSamples(contract);
  const info = spec.info as { description?: string };
  info.description = `${info.description ?? ''}\n\n[Changelog of this contract](changelog.html): every change, with its level.`;
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(spec));
  return file;
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
    runRedocly(['build-docs', await specForDocs(contract, scratch), '-o', outputFile]);
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
  html = html
    .replace(/\s+integrity="[^"]*"/g, '')
    .replace(/\s+crossorigin="anonymous"/g, '')
    .replace(cdnPattern, `./${RENDERER_NAME}`);
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
  const { changelogPage } = await import('./spec-diff/changelog-page.js');
  writeFileSync(changelogFile, (await changelogPage(contract.info.title)).html);
  console.log(`docs: ${outputFile} and changelog.html (renderer ${rendererVersion}, served locally)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    await buildDocs({ ifStale: process.argv.includes('--if-stale') });
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
