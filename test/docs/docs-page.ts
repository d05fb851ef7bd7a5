// What the browser test reads off the docs page: an operation's section, its request samples (the
// picker, the text shown, whether the text keeps clear of the copy button) and what is left blank
// above it.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { sampleTabs } from '../../scripts/docs/code-samples.js';

/** The section of one operation, `<tag>/<operationId>` as the renderer files it. */
export const operationSection = (page: Page, route: string): Locator => page.locator(`[data-section-id="/${route}"]`);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// The labels the picker can show: the samples' own and the request body's ("Payload").
const pickerLabels = [...Object.values(sampleTabs).map((tab) => tab.label), 'Payload'];
const pickerName = new RegExp(`^(${pickerLabels.map(escapeRegExp).join('|')})$`);

/** Picks the sample labelled `label` in the operation's request samples, and returns the text it shows. */
export async function showSample(page: Page, section: Locator, label: string): Promise<string> {
  const panel = section.locator('.panel-request-samples');
  const picker = panel.getByRole('button', { name: pickerName });
  // With one sample only, the renderer shows its label, not a picker.
  await expect.poll(() => picker.count(), { timeout: 5_000, message: `a sample picker offering ${label}` }).toBe(1);
  if ((await picker.innerText()).trim() !== label) {
    await picker.click();
    // The menu opens in a layer of its own, outside the panel.
    await page.getByRole('menuitem', { name: label, exact: true }).click();
  }
  await expect.poll(async () => (await picker.innerText()).trim(), { timeout: 5_000 }).toBe(label);
  return panel.locator('pre[data-testid="source-code"]').innerText();
}

/** 'clear', or where the sample's text runs under its copy button or out of its box. */
export function sampleLayout(section: Locator): Promise<string> {
  return section.locator('.panel-request-samples').evaluate((panel) => {
    const pre = panel.querySelector('pre[data-testid="source-code"]');
    const button = [...panel.querySelectorAll('[data-component-name="Buttons/CopyButton"]')]
      .map((element) => element.getBoundingClientRect())
      .find((box) => box.width > 0);
    if (!pre || !button) return 'no sample or no copy button';
    const range = panel.ownerDocument.createRange();
    range.selectNodeContents(pre);
    const under = [...range.getClientRects()].find(
      (box) =>
        box.width > 0 &&
        box.left < button.right &&
        box.right > button.left &&
        box.top < button.bottom &&
        box.bottom > button.top,
    );
    if (under)
      return `text at x ${under.left}..${under.right} under the copy button at ${button.left}..${button.right}`;
    if (pre.scrollWidth > pre.clientWidth) return `text ${pre.scrollWidth - pre.clientWidth}px wider than its box`;
    return 'clear';
  });
}

/** The sections before the operation's that are still empty placeholders: blank space above it. */
export function blankSectionsAbove(section: Locator): Promise<string[]> {
  // 4: Node.DOCUMENT_POSITION_FOLLOWING (the operation comes after the other section).
  return section.evaluate((operation) =>
    [...operation.ownerDocument.querySelectorAll('[data-section-id]')]
      .filter((other) => (other.compareDocumentPosition(operation) & 4) !== 0 && other.childElementCount === 0)
      .map((other) => other.getAttribute('data-section-id') ?? ''),
  );
}
