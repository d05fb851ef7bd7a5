// What every browser test of the docs sets up: the docs built, Chromium launched headless, and a
// page that lets through only what its own server (and data: or file: URLs) serves, recording the
// rest it aborts.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { projectRoot } from '../support/process.js';

export const docsFolder = join(projectRoot, 'dist', 'docs');

/** `npm test` builds the docs first; a lone run of a test file builds them when `page` is missing. */
export function ensureDocsBuilt(page: string): void {
  if (existsSync(join(docsFolder, page))) return;
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/docs/build.ts'], { cwd: projectRoot, stdio: 'ignore' });
}

export function launchChromium(executablePath: string, extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      ...extraArgs,
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
}

/** A page of `browser` that reaches only `baseUrl`'s origin; `offServer` lists what it tried elsewhere. */
export async function localPage(
  browser: Browser | undefined,
  baseUrl: string,
): Promise<{ page: Page; offServer: string[] }> {
  if (!browser) throw new Error('Chromium did not start');
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const offServer: string[] = [];
  const origin = new URL(baseUrl).origin;
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.origin === origin || url.protocol === 'data:' || url.protocol === 'file:') return route.continue();
    offServer.push(url.href);
    return route.abort();
  });
  return { page, offServer };
}
