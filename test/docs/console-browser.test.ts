// The console (/docs/try/), in headless Chromium with every request off this server blocked: each
// operation sent with the demo management key, once as filled in from the spec's examples (a 200
// with the documented body and headers) and once with a value the API refuses (a 400, its field
// named under the field); a PATCH's ETag offered as If-Match; a body checked against the spec
// before anything is sent; the key nowhere after (storage, cookies, URL, server log); the page's
// policy refusing an injected script; each operation of the reference linked to the console; and,
// opened from a file, the console asking for a base URL and sending there.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleLink } from '../../scripts/docs/console/console-page.js';
import { CONDITION_HEADER } from '../../scripts/docs/console/console-spec.js';
import { type DemoSeed, seedDemo } from '../../server/provisioning/demo.js';
import { apiBasePaths, type SpecOperation, specOperations } from '../../server/spec.js';
import { findChromium } from '../support/chromium.js';
import { provision, startTestServer, type TestServer } from '../support/server.js';
import { componentSchema, describeErrors, resolveRef, spec } from '../support/spec.js';
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
import { docsFolder, ensureDocsBuilt, launchChromium, localPage as localPageOf } from './docs-browser-setup.js';
import { operationSection } from './docs-page.js';

const chromiumFound = findChromium();
const operations = specOperations(spec);
const NUL = 'a\u0000b';

/** The schema and the headers the spec documents for the operation's 200. */
function documentedSuccess({ operation }: SpecOperation) {
  const success = resolveRef(operation.responses['200'] as object) as {
    headers?: Record<string, unknown>;
    content: { 'application/json': { schema: { $ref: string } } };
  };
  const schemaName = success.content['application/json'].schema.$ref.split('/').pop() ?? '';
  return { validate: componentSchema(schemaName), headers: Object.keys(success.headers ?? {}) };
}

let server: TestServer;
let seed: DemoSeed;
let browser: Browser | undefined;

/** A page that lets through this server's requests only, and records every other one. */
const localPage = (on: TestServer = server) => localPageOf(browser, on.baseUrl);

describe.skipIf(!('path' in chromiumFound))(
  `the console in a browser${'missing' in chromiumFound ? ` (skipped: ${chromiumFound.missing})` : ''}`,
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

    it('sends each operation with the key given once: a 200 as documented, then a 400 naming the field', async () => {
      const { page, offServer } = await localPage();
      const [first] = operations;
      if (!first) throw new Error('openapi.yaml has no operation');
      await page.goto(
        `${server.baseUrl}/docs/${consoleLink(first.operation.tags?.[0] ?? '', first.operation.operationId)}`,
        {
          waitUntil: 'networkidle',
        },
      );
      await authorize(page, seed.management_key);
      for (const found of operations) {
        const { operationId } = found.operation;
        const block = operationBlock(page, found);
        await open(block);
        for (const parameter of found.parameters.filter((p) => p.in === 'path'))
          await parameterRow(block, parameter.name)
            .locator('input')
            .fill(seededValues(seed)[parameter.name] ?? '');

        const answer = await send(block);
        expect(answer.status, `${operationId}: ${answer.body}`).toBe(200);
        const { validate, headers } = documentedSuccess(found);
        expect(validate(JSON.parse(answer.body)), `${operationId}: ${describeErrors(validate.errors)}`).toBe(true);
        for (const name of headers)
          expect(answer.headers.has(name.toLowerCase()), `${operationId} shows ${name}`).toBe(true);
        expect(answer.highlightedTokens, `${operationId}: the body is highlighted`).toBeGreaterThan(1);

        const condition = found.parameters.find((p) => p.in === 'header' && p.name === CONDITION_HEADER);
        if (condition) {
          // The ETag is offered as If-Match, and the next send is conditional on it.
          const ifMatch = parameterRow(block, condition.name).locator('input');
          expect(await ifMatch.inputValue()).toBe(answer.headers.get('etag'));
          expect((await send(block)).status, `${operationId} with its ETag as ${condition.name}`).toBe(200);
        }

        const field = unstorableTextField(found);
        let path: string;
        if ('parameter' in field) {
          await parameterRow(block, field.parameter).locator('input').fill(NUL);
          path = `/path/${field.parameter}`;
        } else {
          await block.locator('textarea.body-param__text').fill(JSON.stringify({ [field.property]: NUL }));
          path = `/body/${field.property}`;
        }
        const refused = await send(block);
        expect(refused.status, `${operationId}: ${refused.body}`).toBe(400);
        expect(JSON.parse(refused.body).error.metadata.errors.map((e: { path: string }) => e.path)).toContain(path);
        await expect.poll(() => fieldErrors(block, path).isVisible(), { timeout: 5_000, message: path }).toBe(true);
        if ('parameter' in field) {
          // Under the parameter's own row.
          const under = parameterRow(block, field.parameter).locator('xpath=following-sibling::tr[1]');
          expect(await under.locator(`li[data-path="${path}"]`).count()).toBe(1);
        }
      }

      // The key is nowhere the page keeps anything, nor in the URL, nor in the server's log.
      const kept = await page.evaluate<Record<string, string>>(
        '({ local: JSON.stringify({ ...localStorage }), session: JSON.stringify({ ...sessionStorage }), cookies: document.cookie, url: location.href })',
      );
      expect(Object.values(kept).filter((value) => value.includes(seed.management_key))).toEqual([]);
      expect((await page.context().cookies()).filter((cookie) => cookie.value.includes(seed.management_key))).toEqual(
        [],
      );
      expect(JSON.stringify(server.logs)).not.toContain(seed.management_key);
      expect(server.logs.some((entry) => /^(GET|PATCH) 200$/.test(entry.msg))).toBe(true);
      expect(offServer).toEqual([]);
      await page.close();
    }, 120_000);

    it("checks a body against the operation's schema before sending: nothing sent, the field named", async () => {
      const { page } = await localPage();
      const found = operations.find((entry) => entry.operation.requestBody);
      if (!found) throw new Error('openapi.yaml has no operation with a body');
      // A property with a maximum, sent above it.
      const body = resolveRef(found.operation.requestBody?.content['application/json']?.schema ?? {}) as {
        properties: Record<string, { maximum?: number }>;
      };
      const [property, schema] =
        Object.entries(body.properties).find(([, value]) => typeof resolveRef(value).maximum === 'number') ?? [];
      const maximum = schema && resolveRef(schema).maximum;
      if (!property || maximum === undefined) throw new Error('the body has no property with a maximum');

      await page.goto(
        `${server.baseUrl}/docs/${consoleLink(found.operation.tags?.[0] ?? '', found.operation.operationId)}`,
        {
          waitUntil: 'networkidle',
        },
      );
      const block = operationBlock(page, found);
      await open(block);
      for (const parameter of found.parameters.filter((p) => p.in === 'path'))
        await parameterRow(block, parameter.name)
          .locator('input')
          .fill(seededValues(seed)[parameter.name] ?? '');
      await block.locator('textarea.body-param__text').fill(JSON.stringify({ [property]: maximum + 1 }));
      const sent: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'fetch') sent.push(request.url());
      });
      await block.getByRole('button', { name: 'Execute' }).click();
      const error = fieldErrors(block, `/body/${property}`);
      await expect.poll(() => error.isVisible(), { timeout: 5_000 }).toBe(true);
      expect(await error.innerText()).toBe(`/body/${property}: must be <= ${maximum}`);
      expect(sent).toEqual([]);
      await page.close();
    }, 60_000);

    it('refuses a script injected into the page, by its policy', async () => {
      const { page } = await localPage();
      await page.goto(`${server.baseUrl}/docs/try/`, { waitUntil: 'networkidle' });
      // The script is added from the page's own code, as an injection would be; it never runs.
      const outcome = await page.evaluate<{ ran: boolean; violated: string }>(`new Promise((resolve) => {
        document.addEventListener('securitypolicyviolation', (event) =>
          resolve({ ran: 'injected' in window, violated: event.effectiveDirective }));
        const script = document.createElement('script');
        script.textContent = 'window.injected = true';
        document.body.append(script);
      })`);
      expect(outcome).toEqual({ ran: false, violated: 'script-src-elem' });
      await page.close();
    });

    it('is linked from each operation of the reference, and opens at that operation', async () => {
      const { page, offServer } = await localPage();
      for (const found of operations) {
        const route = `${(found.operation.tags?.[0] ?? '').toLowerCase()}/${found.operation.operationId.toLowerCase()}`;
        await page.goto(`${server.baseUrl}/docs/#/${route}`, { waitUntil: 'networkidle' });
        await operationSection(page, route).getByRole('link', { name: 'Send it from the console' }).click();
        await page.waitForURL(/\/docs\/try\/index\.html#\//);
        await expect
          .poll(() => operationBlock(page, found).getAttribute('class'), { timeout: 15_000 })
          .toContain('is-open');
      }
      expect(offServer).toEqual([]);
      await page.close();
    }, 60_000);

    it('opened from a file, says it needs a base URL, asks for it and sends there', async () => {
      // A server that allows the origin of a page opened from a file.
      const allowing = await startTestServer({ corsOrigins: ['null'] });
      try {
        const demo = await seedDemo(allowing.store, provision, allowing.clock.now());
        const { page, offServer } = await localPage(allowing);
        await page.goto(pathToFileURL(join(docsFolder, 'try', 'index.html')).href);
        const form = page.locator('form#base-url');
        await expect.poll(() => form.isVisible(), { timeout: 5_000 }).toBe(true);
        expect(await form.innerText()).toContain('opened from a file');
        await form.getByLabel('Base URL of the API server').fill(allowing.baseUrl);
        await form.getByRole('button', { name: 'Send to this server' }).click();
        const servers = page.locator('.servers select');
        await expect.poll(() => servers.isVisible(), { timeout: 15_000 }).toBe(true);
        const [basePath = ''] = apiBasePaths(spec);
        expect(await servers.inputValue()).toBe(`${allowing.baseUrl}${basePath}`);
        expect(await servers.locator('option').count()).toBe(1);

        const found = operations.find((entry) => entry.operation.requestBody === undefined);
        if (!found) throw new Error('openapi.yaml has no operation without a body');
        await authorize(page, demo.management_key);
        const block = operationBlock(page, found);
        await open(block);
        for (const parameter of found.parameters.filter((p) => p.in === 'path'))
          await parameterRow(block, parameter.name)
            .locator('input')
            .fill(seededValues(demo)[parameter.name] ?? '');
        const answer = await send(block);
        expect(answer.status, answer.body).toBe(200);
        expect(offServer).toEqual([]);
        await page.close();
      } finally {
        await allowing.close();
      }
    }, 60_000);
  },
);
