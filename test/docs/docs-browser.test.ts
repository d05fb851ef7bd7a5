// The published docs, opened at /docs in headless Chromium with every request off this server
// blocked: the three operations, their parameters, error responses and code samples (each one
// picked in the sample picker) must show, and the changelog page open, under 127.0.0.1 and under
// another hostname over plain HTTP, and nothing is even attempted elsewhere. The page's cosmetics
// are held too: samples clear of their copy button, header examples as sent, no blank band above
// an operation, no "Array of any", no attribution box over an empty logo.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeSamples, sampleTabs } from '../../scripts/docs/code-samples.js';
import { operationHandlers } from '../../server/operations/handlers.js';
import { nodeAt, specOperations } from '../../server/spec.js';
import { findChromium } from '../support/chromium.js';
import { projectRoot } from '../support/process.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { findOperation, spec } from '../support/spec.js';
import { ensureDocsBuilt, launchChromium } from './docs-browser-setup.js';
import { blankSectionsAbove, operationSection, sampleLayout, showSample } from './docs-page.js';

const chromiumFound = findChromium();
const hasChromium = 'path' in chromiumFound;
// Any name but localhost's: a browser upgrades plain HTTP requests elsewhere when the CSP asks it to.
const OTHER_HOSTNAME = 'docs.example.test';
const screenshotPath = join(projectRoot, 'test-output', 'docs.png');

const samples = codeSamples(spec);

/** The string examples of the headers of an operation's first 2xx response, the one the docs open. */
function successHeaderExamples(responses: Record<string, unknown>): string[] {
  const success = Object.entries(responses).find(([status]) => status.startsWith('2'))?.[1];
  const resolve = (node: unknown): Record<string, unknown> => {
    const ref = (node as { $ref?: unknown } | undefined)?.$ref;
    return (typeof ref === 'string' ? nodeAt(spec, ref) : node) as Record<string, unknown>;
  };
  const headers = Object.values(resolve(success)?.headers ?? {}).map(resolve);
  return headers.flatMap((header) => (typeof header.example === 'string' ? [header.example] : []));
}
let server: TestServer;
let browser: Browser | undefined;

describe.skipIf(!hasChromium)(
  `docs in a browser${'missing' in chromiumFound ? ` (skipped: ${chromiumFound.missing})` : ''}`,
  () => {
    beforeAll(async () => {
      ensureDocsBuilt('index.html');
      server = await startTestServer();
      browser = await launchChromium('path' in chromiumFound ? chromiumFound.path : '', [
        `--host-resolver-rules=MAP ${OTHER_HOSTNAME} 127.0.0.1`,
        '--disable-quic',
        '--disable-component-update',
        '--disable-sync',
      ]);
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('renders the three operations, their parameters and error responses with no network', async () => {
      if (!browser) throw new Error('Chromium did not start');
      const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
      const page = await context.newPage();
      const blocked: string[] = [];
      const local = new URL(server.baseUrl).host;
      await page.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (url.host === local || url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
        blocked.push(url.href);
        return route.abort();
      });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));

      const response = await page.goto(`${server.baseUrl}/docs/`, { waitUntil: 'networkidle' });
      expect(response?.status()).toBe(200);
      await expect
        .poll(() => page.getByText(`${spec.info.title} (${spec.info.version})`).isVisible(), { timeout: 15_000 })
        .toBe(true);

      // Each operation is its own section, reached from the sidebar.
      // Every operation of the spec, where the renderer files it (`<tag>/<operationId>`).
      const operations = specOperations(spec).map(({ operation, parameters }) => {
        const bodySchema = operation.requestBody?.content['application/json']?.schema as { $ref?: string } | undefined;
        const body = bodySchema?.$ref
          ? (spec.components.schemas[bodySchema.$ref.split('/').pop() ?? ''] as { properties?: object })
          : undefined;
        return {
          operationId: operation.operationId,
          route: `${(operation.tags?.[0] ?? '').toLowerCase()}/${operation.operationId.toLowerCase()}`,
          summary: operation.summary ?? '',
          parameters: [...parameters.map((p) => p.name), ...Object.keys(body?.properties ?? {})],
          statuses: Object.keys(operation.responses),
          headerExamples: successHeaderExamples(operation.responses),
        };
      });
      expect(operations.map((o) => o.operationId).sort()).toEqual(Object.keys(operationHandlers).sort());
      mkdirSync(join(projectRoot, 'test-output'), { recursive: true });
      for (const operation of operations) {
        await page.goto(`${server.baseUrl}/docs/#/${operation.route}`, { waitUntil: 'networkidle' });
        const heading = page.getByRole('heading', { name: operation.summary });
        await expect.poll(() => heading.isVisible(), { timeout: 15_000 }).toBe(true);
        for (const name of operation.parameters) {
          await expect
            .poll(() => page.getByText(name, { exact: true }).first().isVisible(), { timeout: 5_000 })
            .toBe(true);
        }
        const section = operationSection(page, operation.route);
        const main = await section.innerText();
        for (const status of operation.statuses)
          expect(main, `${operation.route} shows ${status}`).toMatch(new RegExp(`\\b${status}\\b`));
        // The key kinds it accepts, as the roles of its security requirements.
        const shownKinds = [...main.matchAll(/bearerAuth\s*\(Required scopes:\s*(\w+)\s*\)/g)].map((match) => match[1]);
        const stated = (findOperation(operation.operationId).operation.security ?? []).flatMap(
          (requirement) => requirement.bearerAuth ?? [],
        );
        expect(shownKinds, `${operation.route} shows its key kinds`).toEqual(stated);
        // Its code samples, each picked in the sample picker: its text as the docs build made it,
        // the TypeScript one calling the client's method of that operation, and clear of the copy button.
        const sample = samples.get(operation.operationId);
        const curl = await showSample(page, section, sampleTabs.curl.label);
        expect(curl.trim(), `${operation.route} shows its curl sample`).toBe(sample?.curl);
        expect(await sampleLayout(section), `${operation.route}: the curl sample's layout`).toBe('clear');
        const typescript = await showSample(page, section, sampleTabs.typescript.label);
        expect(typescript, `${operation.route} shows its TypeScript sample`).toContain(`api.${operation.operationId}(`);
        expect(typescript.trim(), `${operation.route} shows its TypeScript sample`).toBe(sample?.typescript);
        expect(await sampleLayout(section), `${operation.route}: the TypeScript sample's layout`).toBe('clear');
        // Header examples as the header is sent, not as a JSON string.
        for (const example of operation.headerExamples) {
          expect(main, `${operation.route} shows the header example ${example}`).toContain(example);
          expect(main).not.toContain(JSON.stringify(example));
        }
        // Every schema names its type, arrays their element type.
        expect(main, `${operation.route} names every type`).not.toContain('Array of any');
        await page.screenshot({ path: join(projectRoot, 'test-output', `docs-${operation.route.split('/')[0]}.png`) });
      }
      // The key's path parameter states the form of the hash the responses give (in the request's
      // part of the section: the responses' schema shows that pattern too).
      const hashPattern = nodeAt(spec, '#/components/schemas/ApiKey/properties/hash/pattern');
      expect(typeof hashPattern).toBe('string');
      await page.goto(`${server.baseUrl}/docs/#/keys/getkey`, { waitUntil: 'networkidle' });
      const getKeyText = await operationSection(page, 'keys/getkey').innerText();
      expect(getKeyText).toMatch(/^Responses$/m);
      expect(getKeyText.split(/^Responses$/m)[0]).toContain(String(hashPattern));
      // No "API docs by" box over the logo the page cannot load.
      expect(await page.getByText('API docs by').isVisible()).toBe(false);
      // An error response opens to its description.
      await page.goto(`${server.baseUrl}/docs/#/observability/updateobservabilitydestination`, {
        waitUntil: 'networkidle',
      });
      // Its 412 among the operation's responses, not a 412 the introduction speaks of.
      const patchSection = page.locator('[data-section-id="/observability/updateobservabilitydestination"]');
      await patchSection.getByText('412', { exact: true }).first().click();
      await expect
        .poll(() => page.getByText('does not match the current', { exact: false }).first().isVisible(), {
          timeout: 5_000,
        })
        .toBe(true);
      await page.screenshot({ path: screenshotPath, fullPage: false });
      expect(existsSync(screenshotPath)).toBe(true);
      expect(blocked).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    }, 60_000);

    it('opens each operation by its link with nothing left blank above it', async () => {
      if (!browser) throw new Error('Chromium did not start');
      const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
      for (const { operation } of specOperations(spec)) {
        // A page of its own: the renderer keeps the sections a page has shown once.
        const page = await context.newPage();
        const route = `${(operation.tags?.[0] ?? '').toLowerCase()}/${operation.operationId.toLowerCase()}`;
        await page.goto(`${server.baseUrl}/docs/#/${route}`, { waitUntil: 'networkidle' });
        const heading = page.getByRole('heading', { name: operation.summary });
        await expect.poll(() => heading.isVisible(), { timeout: 15_000 }).toBe(true);
        await expect
          .poll(() => blankSectionsAbove(operationSection(page, route)), { timeout: 5_000, message: route })
          .toEqual([]);
        await page.close();
      }
      await context.close();
    }, 60_000);

    it("links to the changelog page, which opens with no network and lists the contract's versions", async () => {
      if (!browser) throw new Error('Chromium did not start');
      const context = await browser.newContext();
      const page = await context.newPage();
      const local = new URL(server.baseUrl).host;
      const blocked: string[] = [];
      await page.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (url.host === local || url.protocol === 'data:') return route.continue();
        blocked.push(url.href);
        return route.abort();
      });
      await page.goto(`${server.baseUrl}/docs/`, { waitUntil: 'networkidle' });
      await page.getByRole('link', { name: 'Changelog of this contract' }).first().click();
      await page.waitForURL(/\/docs\/changelog\.html$/);
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).innerText(), { timeout: 5_000 })
        .toBe(`${spec.info.title}: changelog`);
      expect(await page.locator('h2').count()).toBeGreaterThan(0);
      expect(blocked).toEqual([]);
      await context.close();
    }, 30_000);

    it(`renders under another hostname over plain HTTP (${OTHER_HOSTNAME}), and attempts nothing elsewhere`, async () => {
      if (!browser) throw new Error('Chromium did not start');
      const baseUrl = server.baseUrl.replace('127.0.0.1', OTHER_HOSTNAME);
      const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
      const page = await context.newPage();
      const offServer: string[] = [];
      await page.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (url.origin === new URL(baseUrl).origin || url.protocol === 'data:' || url.protocol === 'blob:')
          return route.continue();
        offServer.push(url.href);
        return route.abort();
      });
      // What the page's CSP refused never reaches the network: Chromium says so on the console.
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
      });
      const response = await page.goto(`${baseUrl}/docs/`, { waitUntil: 'networkidle' });
      expect(response?.headers()['content-security-policy']).not.toMatch(/upgrade-insecure-requests/);
      await expect
        .poll(() => page.getByText(`${spec.info.title} (${spec.info.version})`).isVisible(), { timeout: 15_000 })
        .toBe(true);
      for (const { operation } of specOperations(spec)) {
        const route = `${(operation.tags?.[0] ?? '').toLowerCase()}/${operation.operationId.toLowerCase()}`;
        await page.goto(`${baseUrl}/docs/#/${route}`, { waitUntil: 'networkidle' });
        const heading = page.getByRole('heading', { name: operation.summary });
        await expect.poll(() => heading.isVisible(), { timeout: 15_000 }).toBe(true);
      }
      expect(offServer).toEqual([]);
      expect(refused).toEqual([]);
      await context.close();
    }, 60_000);

    it('serves the spec beside the docs', async () => {
      expect((await fetch(`${server.baseUrl}/openapi.yaml`)).status).toBe(200);
      expect((await fetch(`${server.baseUrl}/openapi.json`)).status).toBe(200);
    });
  },
);
