// The operations of openapi.yaml as a request finds them: by method and by the path below one of
// the spec's server URLs. Several middlewares need to know which operation a request is for before
// the validator has run.
import type { OpenApiDocument, OpenApiOperation } from '../spec.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface SpecOperation {
  method: (typeof HTTP_METHODS)[number];
  /** The path template as the spec writes it, `/keys/{hash}`. */
  template: string;
  operation: OpenApiOperation;
}

/** Every operation of the spec, in the spec's order. */
export function specOperations(spec: OpenApiDocument): SpecOperation[] {
  return Object.entries(spec.paths).flatMap(([template, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ method, template, operation }] : [];
    }),
  );
}

/** The path part of each server URL of the spec (`/api/v1`), where the operations are served. */
export function apiBasePaths(spec: OpenApiDocument): string[] {
  const urls = (spec.servers ?? []).map((server) => server.url);
  const paths = (urls.length > 0 ? urls : ['/']).map((url) => new URL(url, 'http://server.invalid').pathname.replace(/\/+$/, ''));
  return [...new Set(paths)];
}

/** Finds the operation of a method and a full request path (base path included). */
export function operationMatcher(spec: OpenApiDocument): (method: string, path: string) => SpecOperation | undefined {
  const basePaths = apiBasePaths(spec);
  const compiled = specOperations(spec).map((entry) => ({
    entry,
    method: entry.method.toUpperCase(),
    pattern: new RegExp(`^${entry.template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  return (method, path) => {
    for (const base of basePaths) {
      if (!path.startsWith(`${base}/`)) continue;
      const below = path.slice(base.length);
      const found = compiled.find((c) => c.method === method && c.pattern.test(below));
      if (found) return found.entry;
    }
    return undefined;
  };
}

/** The path of an operation of the spec under its first server URL, its path parameters filled in. */
export function operationPath(spec: OpenApiDocument, operationId: string, parameters: Record<string, string>): string {
  const found = specOperations(spec).find((entry) => entry.operation.operationId === operationId);
  if (!found) throw new Error(`openapi.yaml has no operation ${operationId}`);
  const [basePath = ''] = apiBasePaths(spec);
  return basePath + found.template.replace(/\{([^}]+)\}/g, (_match, name: string) => encodeURIComponent(parameters[name] ?? ''));
}
