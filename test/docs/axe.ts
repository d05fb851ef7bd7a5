// axe-core, Deque's checker of the WCAG rules, run in a page as its reader has it: the violations of
// WCAG 2.0 and 2.1, levels A and AA, that axe rates serious or critical, one line each.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const FAILING = new Set(['serious', 'critical']);

interface Violation {
  id: string;
  impact: string | null;
  nodes: { target: string[]; summary: string }[];
}

/** Each serious or critical violation on the page as it is now: rule, impact, element and why. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Through the debugging protocol, which the pages' policies (no inline script) do not govern.
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"'))) await page.evaluate(axeSource);
  const violations = await page.evaluate<Violation[]>(`
    axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_21_AA)} }, resultTypes: ['violations'] })
      .then((result) => result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        nodes: violation.nodes.map((node) => ({ target: node.target.map(String), summary: node.failureSummary ?? '' })),
      })))`);
  return violations
    .filter((violation) => FAILING.has(violation.impact ?? ''))
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.id} (${violation.impact}) at ${node.target.join(' ')}: ${node.summary.replace(/\s+/g, ' ')}`,
      ),
    );
}

/**
 * Opens whatever the page keeps closed (sections, responses, schemas, operations), round after
 * round while opening one shows more, so that the check sees everything a reader can open.
 * `skip` names the controls that toggle what another control opens.
 */
export async function openEverything(page: Page, skip = ''): Promise<void> {
  const closed = `[aria-expanded="false"]${skip ? `:not(${skip})` : ''}`;
  for (let round = 0; round < 4; round++) {
    const opened = await page.evaluate<number>(`(() => {
      const controls = [...document.querySelectorAll(${JSON.stringify(closed)})];
      for (const control of controls) control.click();
      return controls.length;
    })()`);
    if (opened === 0) return;
    // Clicks are rendered when their handlers return; two frames let what they started paint.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
  }
}
