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

/** A path without the names of its variables: `/orders/{id}` and `/orders/{orderId}` are one path to a client. */
export const pathTemplate = (path: string) => path.replace(/\{[^}]*\}/g, '{}');

const variablesOf = (path: string) => [...path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1] ?? '');

/** An operation whose path variables are renamed (`to` to `from`, by position), its path parameters with them. */
function withVariablesOf(operation: Json, from: string, to: string): Json {
  const names = new Map(variablesOf(to).map((name, index) => [name, variablesOf(from)[index] ?? name]));
  const parameters = ((operation.parameters ?? []) as Parameter[]).map((parameter) => {
    const name = parameter.in === 'path' ? names.get(parameter.name) : undefined;
    if (name === undefined || name === parameter.name) return parameter;
    const renamed = { ...parameter, name };
    if (pathLevel.has(parameter)) pathLevel.add(renamed);
    return renamed;
  });
  return { ...operation, parameters };
}

/**
 * Each operation of the first version with its next version, as oasdiff pairs them: by method and
 * path, or by method and the path's template where only the names of path variables changed; the
 * next version's path parameters then take their previous names, so that they pair as well.
 */
export function pairOperations(before: Operations, after: Operations): Map<string, { key: string; operation: Json }> {
  const byTemplate = new Map<string, string>();
  const templateKey = (key: string, path: string) => `${key.split(' ')[0]} ${pathTemplate(path)}`;
  for (const [key, { path }] of after) byTemplate.set(templateKey(key, path), key);
  const pairs = new Map<string, { key: string; operation: Json }>();
  for (const [key, { path }] of before) {
    const nextKey = after.has(key) ? key : byTemplate.get(templateKey(key, path));
    const next = nextKey === undefined ? undefined : after.get(nextKey);
    if (nextKey === undefined || !next) continue;
    pairs.set(key, { key: nextKey, operation: withVariablesOf(next.operation, path, next.path) });
  }
  return pairs;
}
