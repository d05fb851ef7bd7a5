// What the console's browser test does on the page and reads off it: an operation's block, the
// key given once, a field filled, a send, and the answer as the console shows it.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { DemoSeed } from '../../server/provisioning/demo.js';
import type { SpecOperation } from '../../server/spec.js';
import { resolveRef } from '../support/spec.js';

/** The demo workspace's record each path parameter names, by the parameter's name. */
export const seededValues = (seed: DemoSeed): Record<string, string> => ({
  hash: seed.key_hash,
  id: seed.destination_id,
  slug: seed.preset_slug,
});

/** Swagger UI's block of one operation, `#operations-<tag>-<operationId>`. */
export const operationBlock = (page: Page, { operation }: SpecOperation): Locator =>
  page.locator(`[id="operations-${operation.tags?.[0] ?? 'default'}-${operation.operationId}"]`);

/** The row of one parameter, and the row the console adds under it with its errors. */
export const parameterRow = (block: Locator, name: string): Locator => block.locator(`tr[data-param-name="${name}"]`);
export const fieldErrors = (block: Locator, path: string): Locator =>
  block.locator(`.console-field-errors li[data-path="${path}"]`);

/** Gives the key to Authorize, once for the page. */
export async function authorize(page: Page, key: string): Promise<void> {
  await page.getByRole('button', { name: 'Authorize' }).first().click();
  const dialog = page.locator('.dialog-ux');
  await dialog.getByLabel('Value').fill(key);
  await dialog.getByRole('button', { name: 'Apply credentials' }).click();
  await dialog.getByRole('button', { name: 'Close' }).click();
}

/** Opens the operation's block when it is closed. */
export async function open(block: Locator): Promise<void> {
  if (!(await block.getAttribute('class'))?.includes('is-open'))
    await block.locator('.opblock-summary-control').click();
  await expect.poll(() => block.getByRole('button', { name: 'Execute' }).isVisible(), { timeout: 5_000 }).toBe(true);
}

function sameJson(shown: string, sent: string): boolean {
  try {
    return JSON.stringify(JSON.parse(shown)) === JSON.stringify(JSON.parse(sent));
  } catch {
    return shown === sent;
  }
}

export interface ShownAnswer {
  status: number;
  body: string;
  /** Response headers as the console lists them, by lower-cased name. */
  headers: Map<string, string>;
  /** How many highlighted tokens the body is shown in. */
  highlightedTokens: number;
}

/** Sends the operation as it is filled in, and reads the answer the console shows. */
export async function send(block: Locator): Promise<ShownAnswer> {
  const answer = block.locator('.live-responses-table');
  const page = block.page();
  const answered = page.waitForResponse((response) => response.request().resourceType() === 'fetch');
  await block.getByRole('button', { name: 'Execute' }).click();
  const response = await answered;
  const sent = { status: response.status(), body: await response.text() };
  // The previous answer stays on the page until React renders the new one, and its status and
  // body are not rendered at once: read them only when both are this response's.
  const statusCell = answer.locator('tr.response .response-col_status').first();
  const code = answer.locator('tr.response .response-col_description .highlight-code code').first();
  const shown = async () =>
    (await statusCell.isVisible()) && (await code.isVisible())
      ? { status: Number(/\d{3}/.exec(await statusCell.innerText())?.[0]), body: await code.innerText() }
      : undefined;
  await expect
    .poll(
      async () => {
        const now = await shown();
        return now !== undefined && now.status === sent.status && sameJson(now.body, sent.body);
      },
      { timeout: 5_000, message: `the console shows the answer ${sent.status} ${sent.body}` },
    )
    .toBe(true);
  const headerLines = await answer
    .locator('xpath=.//h5[text()="Response headers"]/following-sibling::pre[1]/span')
    .allInnerTexts();
  const headers = new Map(
    headerLines.flatMap((line) => {
      const at = line.indexOf(':');
      return at > 0 ? [[line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim()] as const] : [];
    }),
  );
  return {
    status: Number(/\d{3}/.exec(await statusCell.innerText())?.[0]),
    body: await code.innerText(),
    headers,
    highlightedTokens: await code.locator('span').count(),
  };
}

type Schema = { type?: string | string[]; format?: string; properties?: Record<string, Schema> };
const plainString = (schema: Schema | undefined) =>
  schema !== undefined && [schema.type].flat().includes('string') && schema.format === undefined;

/**
 * Where a value with U+0000 goes for the operation's deliberate 400: a rule of the API (see "Text"
 * in openapi.yaml) that no schema states, so neither Swagger UI nor the console's check stops it.
 * The first path parameter the page takes any text in, else the first such property of the body.
 */
export function unstorableTextField(found: SpecOperation): { parameter: string } | { property: string } {
  const parameter = found.parameters.find((p) => p.in === 'path' && plainString(p.schema as Schema));
  if (parameter) return { parameter: parameter.name };
  const body = found.operation.requestBody?.content['application/json']?.schema;
  const properties = body ? (resolveRef(body as Schema).properties ?? {}) : {};
  const property = Object.entries(properties).find(([, schema]) => plainString(resolveRef(schema)))?.[0];
  if (!property) throw new Error(`${found.operation.operationId}: no field takes any text`);
  return { property };
}
