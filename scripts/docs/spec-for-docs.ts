// The contract as the docs show it, in the docs' copy only (openapi.yaml stays as written): a curl
// and a TypeScript sample for each operation, a link to the changelog page in the introduction, a
// link from each operation to the console, and
// two rewrites that change nothing the contract says, only how Redoc renders it.

import { isObject, type JsonObject, type OpenApiDocument, resolveRef, specOperations } from '../../server/spec.js';
import { withCodeSamples } from './code-samples.js';
import { consoleLink } from './console/console-page.js';
import { WORKFLOWS_PAGE } from './workflows-page.js';

/**
 * Redoc shows a response header's `example` as JSON (`"\"per-key\"; r=118"`), but the values of its
 * `examples` as written: a string example moves there, under the header's name.
 */
function literalHeaderExamples(spec: OpenApiDocument): void {
  const responses = [
    ...Object.values(spec.components.responses),
    ...Object.values(spec.paths).flatMap((item) =>
      Object.values(item).flatMap((operation) => (isObject(operation) ? Object.values(operation.responses ?? {}) : [])),
    ),
  ];
  const headerMaps = [(spec.components as JsonObject).headers, ...responses.map((response) => response.headers)];
  for (const headers of headerMaps.filter(isObject)) {
    for (const [name, header] of Object.entries(headers)) {
      if (!isObject(header) || typeof header.example !== 'string' || header.examples !== undefined) continue;
      header.examples = { [name]: { summary: 'As sent', value: header.example } };
      delete header.example;
    }
  }
}

/** The `type` of a schema, its `$ref`s followed; undefined when it states none. */
function typesOf(spec: OpenApiDocument, schema: unknown): string[] | undefined {
  const resolved = resolveRef(spec, schema);
  if (!isObject(resolved)) return undefined;
  if (typeof resolved.type === 'string') return [resolved.type];
  return Array.isArray(resolved.type) ? resolved.type.map(String) : undefined;
}

/**
 * Redoc names an array's element type from its items' `type` alone: items that are a oneOf (or
 * anyOf) of typed alternatives show as "Array of any". The union of those types is what the
 * alternatives allow already, so stating it on the items changes nothing they validate.
 */
function typedArrayItems(spec: OpenApiDocument, node: unknown): void {
  if (Array.isArray(node)) {
    for (const child of node) typedArrayItems(spec, child);
    return;
  }
  if (!isObject(node)) return;
  const items = node.items;
  if (isObject(items) && items.type === undefined) {
    const alternatives = items.oneOf ?? items.anyOf;
    const types = Array.isArray(alternatives) ? alternatives.map((schema) => typesOf(spec, schema)) : [];
    if (types.length > 0 && types.every((type) => type !== undefined)) {
      const union = [...new Set(types.flat())];
      items.type = union.length === 1 ? union[0] : union;
    }
  }
  for (const [key, child] of Object.entries(node)) {
    // Examples and samples are values, not schemas.
    if (key !== 'example' && key !== 'examples' && key !== 'x-codeSamples') typedArrayItems(spec, child);
  }
}

/** A link from each operation to the same operation in the console (console/), at the end of its description. */
function consoleLinks(spec: OpenApiDocument): void {
  for (const { operation } of specOperations(spec)) {
    const link = consoleLink(operation.tags?.[0] ?? 'default', operation.operationId);
    const described = operation as { description?: string };
    described.description = `${described.description ?? ''}\n\n[Send it from the console](${link}) with your key.`;
  }
}

export function specForDocs(contract: OpenApiDocument): OpenApiDocument {
  const spec = withCodeSamples(contract);
  const info = spec.info as { description?: string };
  info.description = `${info.description ?? ''}\n\n[Changelog of this contract](changelog.html): every change, with its level.\n\n[Consumer workflows](${WORKFLOWS_PAGE}): what a consumer does with several operations in order, step by step.`;
  literalHeaderExamples(spec);
  typedArrayItems(spec, spec);
  consoleLinks(spec);
  return spec;
}
