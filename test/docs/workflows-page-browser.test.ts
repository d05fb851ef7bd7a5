// The docs' workflows page, in headless Chromium with every request off this server blocked: it is
// linked from the reference's introduction, shows each workflow of arazzo/workflows.arazzo.yaml
// with its inputs, its steps in the file's order and its outputs, and each step's link opens its
// operation in the reference.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKFLOWS_PAGE } from '../../scripts/docs/workflows-page.js';
import { loadWorkflows } from '../../scripts/workflows/arazzo.js';
import { findChromium } from '../support/chromium.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { findOperation } from '../support/spec.js';
import { ensureDocsBuilt, launchChromium, localPage as localPageOf } from './docs-browser-setup.js';
import { operationSection } from './docs-page.js';

const chromiumFound = findChromium();
const workflows = loadWorkflows().workflows;
let server: TestServer;
let browser: Browser | undefined;

const localPage = () => localPageOf(browser, server.baseUrl);

describe.skipIf(!('path' in chromiumFound))(
  `the workflows page in a browser${'missing' in chromiumFound ? ` (skipped: ${chromiumFound.missing})` : ''}`,
  () => {
    beforeAll(async () => {
      ensureDocsBuilt(WORKFLOWS_PAGE);
      server = await startTestServer();
      browser = await launchChromium('path' in chromiumFound ? chromiumFound.path : '');
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it("is linked from the reference's introduction, and shows each workflow's inputs, steps in order and outputs", async () => {
      const { page, offServer } = await localPage();
      await page.goto(`${server.baseUrl}/docs/`, { waitUntil: 'networkidle' });
      await page.getByRole('link', { name: 'Consumer workflows' }).first().click();
      await page.waitForURL(new RegExp(`/docs/${WORKFLOWS_PAGE.replace('.', '\\.')}$`));
      for (const workflow of workflows) {
        const section = page.locator(`section[id="${workflow.workflowId}"]`);
        expect(await section.getByRole('heading', { level: 2 }).innerText()).toBe(workflow.workflowId);
        const steps = await section.locator('ol > li').evaluateAll((items) => items.map((item) => item.id));
        expect(steps).toEqual(workflow.steps.map((step) => step.stepId));
        for (const name of workflow.inputs?.required ?? []) expect(await section.innerText()).toContain(name);
        for (const name of Object.keys(workflow.outputs ?? {})) expect(await section.innerText()).toContain(name);
      }
      expect(offServer).toEqual([]);
      await page.close();
    }, 60_000);

    it('links each step to its operation in the reference, which opens at that operation', async () => {
      const { page, offServer } = await localPage();
      const steps = workflows.flatMap((workflow) => workflow.steps.map((step) => ({ workflow, step })));
      for (const { workflow, step } of steps) {
        await page.goto(`${server.baseUrl}/docs/${WORKFLOWS_PAGE}`, { waitUntil: 'networkidle' });
        const operation = findOperation(step.operationId ?? '').operation;
        const link = page.locator(`section[id="${workflow.workflowId}"] li[id="${step.stepId}"] h3 a`);
        expect(await link.innerText()).toBe(operation.operationId);
        await link.click();
        const route = `${(operation.tags?.[0] ?? '').toLowerCase()}/${operation.operationId.toLowerCase()}`;
        await expect
          .poll(() => operationSection(page, route).getByRole('heading', { name: operation.summary }).isVisible(), {
            timeout: 15_000,
            message: `${workflow.workflowId} ${step.stepId}`,
          })
          .toBe(true);
      }
      expect(offServer).toEqual([]);
      await page.close();
    }, 120_000);
  },
);
