// The operations of a document, keyed `METHOD path`: each path item's, with the parameters of the
// path item merged into each operation's own, then those of the webhooks both versions have.
import { HTTP_METHODS } from '../../../server/spec.js';
import type { Schema } from './schema-compare.js';

type Json = Record<string, unknown>;
export type Parameter = Json & { name: string; in: string; required?: boolean; schema?: Schema };
export type Operations = Map<string, { path: string; operation: Json }>;

// Parameters declared on a path item rather than an operation: oasdiff names their addition apart.
const pathLevel = new WeakSet<Parameter>();

export const isPathLevel = (parameter: Parameter) => pathLevel.has(parameter);

/**
 * Path-level parameters merged into each operation's own (the operation's win), as they apply.
 * `prefix` names where the path items are: the document's paths, or its webhooks (`webhook:`).
 */
function operationsOf(items: Record<string, Json>, prefix = ''): Map<string, { path: string; operation: Json }> {
  const operations = new Map<string, { path: string; operation: Json }>();
  for (const [name, item] of Object.entries(items)) {
    const path = `${prefix}${name}`;
    const shared = (item.parameters ?? []) as Parameter[];
    for (const parameter of shared) pathLevel.add(parameter);
    for (const method of HTTP_METHODS.filter((m) => m in item)) {
      const operation = item[method] as Json;
      const own = (operation.parameters ?? []) as Parameter[];
      const parameters = [...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own];
      operations.set(`${method.toUpperCase()} ${path}`, { path, operation: { ...operation, parameters } });
    }
  }
  return operations;
}

/**
 * Every operation of a document: its paths', then those of the webhooks that both versions have.
 * As oasdiff does, a webhook kept from one version to the next is compared as a path
 * (`webhook:<name>`), operation by operation; one added or removed whole is a rule of its own.
 */
export function allOperations(
  document: Json,
  keptWebhooks: Set<string>,
): Map<string, { path: string; operation: Json }> {
  const webhooks = Object.entries((document.webhooks ?? {}) as Record<string, Json>).filter(([name]) =>
    keptWebhooks.has(name),
  );
  return new Map([
    ...operationsOf((document.paths ?? {}) as Record<string, Json>),
    ...operationsOf(Object.fromEntries(webhooks), 'webhook:'),
  ]);
}
