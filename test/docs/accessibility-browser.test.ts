// The docs as every reader uses them, in headless Chromium, judged by axe-core (WCAG 2.0 and 2.1,
// A and AA): every page the docs build writes, in light and dark, wide and at a phone's width, with
// everything it can open opened, and the console after each operation is answered, has no serious
// or critical violation. Every same-origin link of each page answers 200 on its own, and each link
// of the reference to one of its sections opens that section, as a click does. The console's
// operations open from the keyboard.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKFLOWS_PAGE } from '../../scripts/docs/workflows-page.js';
import { type DemoSeed, seedDemo } from '../../server/provisioning/demo.js';
import { specOperations } from '../../server/spec.js';
import { findChromium } from '../support/chromium.js';
import { provision, startTestServer, type TestServer } from '../support/server.js';
import { spec } from '../support/spec.js';
import { openEverything, seriousViolations } from './axe.js';
import {
  authorize,
  fieldErrors,
  open,
  operationBlock,
  parameterRow,
  seededValues,
  send,
  unstorableTextField,
} from './console-page.js';
import { docsFolder, ensureDocsBuilt, launchChromium } from './docs-browser-setup.js';

const chromiumFound = findChromium();
// Swagger UI's arrow beside an operation's summary toggles what the summary opens.
const TOGGLES_AGAIN = '.opblock-control-arrow';

/** Every page the docs build writes, as its path under /docs/ (a folder's index.html as the folder). */
function docsPages(): string[] {
  return readdirSync(docsFolder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.html'))
    .map((file) => file.replace(/(^|\/)index\.html$/, '$1'))
    .sort();
}

const READERS: { name: string; options: BrowserContextOptions }[] = [
  { name: 'light, wide', options: { colorScheme: 'light', viewport: { width: 1400, height: 1000 } } },
  { name: 'dark, wide', options: { colorScheme: 'dark', viewport: { width: 1400, height: 1000 } } },
  { name: "light, a phone's width", options: { colorScheme: 'light', viewport: { width: 390, height: 844 } } },
  { name: "dark, a phone's width", options: { colorScheme: 'dark', viewport: { width: 390, height: 844 } } },
];

let server: TestServer;
let seed: DemoSeed;
let browser: Browser | undefined;

async function openPage(path: string, options: BrowserContextOptions = READERS[0]?.options ?? {}): Promise<Page> {
  if (!browser) throw new Error('Chromium did not start');
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/docs/${path}`, { waitUntil: 'networkidle' });
  return page;
}

/** The links of the page to its own origin, absolute, each once. */
async function sameOriginLinks(page: Page): Promise<string[]> {
  const links = await page.evaluate<string[]>(`[...document.querySelectorAll('a[href]')].map((a) => a.href)`);
  const origin = new URL(server.baseUrl).origin;
  return [...new Set(links.filter((link) => new URL(link).origin === origin))];
}

describe.skipIf(!('path' in chromiumFound))(
  `the docs for every reader${'missing' in chromiumFound ? ` (skipped: ${chromiumFound.missing})` : ''}`,
  () => {
    beforeAll(async () => {
      ensureDocsBuilt(join('try', 'index.html'));
      server = await startTestServer();
      seed = await seedDemo(server.store, provision, server.clock.now());
      browser = await launchChromium('path' in chromiumFound ? chromiumFound.path : '');
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('checks the reference, the console, the changelog and the workflows, among the pages the build writes', () => {
      expect(docsPages()).toEqual(expect.arrayContaining(['', 'try/', 'changelog.html', WORKFLOWS_PAGE]));
    });

    for (const path of docsPages()) {
      for (const reader of READERS) {
        it(`/docs/${path} (${reader.name}): no serious or critical violation, with everything opened`, async () => {
          const page = await openPage(path, reader.options);
          await openEverything(page, TOGGLES_AGAIN);
          expect(await seriousViolations(page)).toEqual([]);
          await page.context().close();
        }, 120_000);
      }
    }

    it("/docs/try/: none either once each operation's answers and field errors are shown", async () => {
      const page = await openPage('try/');
      await authorize(page, seed.management_key);
      for (const found of specOperations(spec)) {
        const block = operationBlock(page, found);
        await open(block);
        for (const parameter of found.parameters.filter((p) => p.in === 'path'))
          await parameterRow(block, parameter.name)
            .locator('input')
            .fill(seededValues(seed)[parameter.name] ?? '');
        expect((await send(block)).status, found.operation.operationId).toBe(200);
        const field = unstorableTextField(found);
        if ('parameter' in field) await parameterRow(block, field.parameter).locator('input').fill('a\u0000b');
        else await block.locator('textarea.body-param__text').fill(JSON.stringify({ [field.property]: 'a\u0000b' }));
        expect((await send(block)).status, found.operation.operationId).toBe(400);
        const path = 'parameter' in field ? `/path/${field.parameter}` : `/body/${field.property}`;
        await expect.poll(() => fieldErrors(block, path).isVisible(), { timeout: 5_000 }).toBe(true);
      }
      await openEverything(page, TOGGLES_AGAIN);
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    }, 120_000);

    it('finds what it checks for: a link made too pale is a serious violation', async () => {
      const page = await openPage('changelog.html');
      expect(await seriousViolations(page)).toEqual([]);
      await page.addStyleTag({ content: 'a { color: #c8c8c8 !important; }' });
      expect(
        (await seriousViolations(page)).some((violation) => violation.startsWith('color-contrast (serious)')),
      ).toBe(true);
      await page.context().close();
    });

    for (const path of docsPages()) {
      it(`/docs/${path}: every link to this server answers 200 when fetched on its own`, async () => {
        const page = await openPage(path);
        await openEverything(page, TOGGLES_AGAIN);
        const links = await sameOriginLinks(page);
        expect(links.length).toBeGreaterThan(0);
        const answers = await Promise.all(links.map(async (link) => `${(await fetch(link)).status} ${link}`));
        expect(answers.filter((answer) => !answer.startsWith('200 '))).toEqual([]);
        await page.context().close();
      }, 60_000);
    }

    it("opens each section of the reference from its link's address, as a click does", async () => {
      const page = await openPage('');
      await openEverything(page);
      const routes = (await sameOriginLinks(page)).filter((link) => new URL(link).hash.startsWith('#/'));
      // The introduction's sections, and each tag and operation.
      expect(routes.length).toBeGreaterThanOrEqual(specOperations(spec).length);
      await page.context().close();
      for (const route of routes) {
        const opened = await openPage(route.slice(`${server.baseUrl}/docs/`.length));
        const section = opened.locator(`[data-section-id="${new URL(route).hash.slice(1)}"]`).first();
        const inView = () =>
          section.evaluate((element) => {
            const box = element.getBoundingClientRect();
            return box.top < (element.ownerDocument.defaultView?.innerHeight ?? 0) && box.bottom > 0;
          });
        await expect.poll(inView, { timeout: 15_000, message: route }).toBe(true);
        await opened.context().close();
      }
    }, 120_000);

    it("opens each of the console's operations from the keyboard", async () => {
      const page = await openPage('try/');
      // The console renders after the network is idle: on a busy machine, counting its controls
      // before every operation is drawn would leave too few presses to reach the last ones.
      for (const found of specOperations(spec))
        await operationBlock(page, found).locator('.opblock-summary-control').waitFor({ timeout: 15_000 });
      for (const found of specOperations(spec)) {
        const summary = operationBlock(page, found).locator('.opblock-summary-control');
        // Tab until the operation's summary has the focus: at most once per control of the page.
        const controls = await page.evaluate<number>(
          `document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]').length`,
        );
        let focused = false;
        for (let press = 0; press < controls && !focused; press++) {
          await page.keyboard.press('Tab');
          focused = await summary.evaluate((element) => element.ownerDocument.activeElement === element);
        }
        expect(focused, found.operation.operationId).toBe(true);
        await page.keyboard.press('Enter');
        await expect
          .poll(() => operationBlock(page, found).getAttribute('class'), { timeout: 5_000 })
          .toContain('is-open');
      }
      await page.context().close();
    }, 60_000);
  },
);
