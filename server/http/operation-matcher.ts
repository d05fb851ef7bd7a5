// Finds the operation of openapi.yaml that a request is for, by method and by the path below one
// of the spec's server URLs: middlewares that run before the validator need to know it; and the
// methods a path takes. A HEAD request is for the GET operation of its path (head-requests.ts).
import { apiBasePaths, type OpenApiDocument, type SpecOperation, specOperations } from '../spec.js';
import { answeredAs } from './head-requests.js';

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
      const found =
        compiled.find((c) => c.method === method && c.pattern.test(below)) ??
        compiled.find((c) => c.method === answeredAs(method) && c.pattern.test(below));
      if (found) return found.entry;
    }
    return undefined;
  };
}

/** The methods that a full request path is answered to, as the validator lists them (HEAD before GET); none for a path of no operation. */
export function pathMethods(spec: OpenApiDocument): (path: string) => string[] {
  const match = operationMatcher(spec);
  const methods = [
    ...new Set(
      specOperations(spec).flatMap(({ method }) => (method === 'get' ? ['HEAD', 'GET'] : [method.toUpperCase()])),
    ),
  ];
  return (path) => methods.filter((method) => match(method, path) !== undefined);
}
