// Finds the operation of openapi.yaml that a request is for, by method and by the path below one
// of the spec's server URLs, with the path's parameters decoded; and the methods a path takes. A
// HEAD request is for the GET operation of its path (head-requests.ts). The request path's layer
// that does it, and answers 404 or 405 for a request of no operation, is in operation-match.ts.
import { decodedComponent } from '../domain/not-utf8.js';
import { apiBasePaths, type OpenApiDocument, type SpecOperation, specOperations } from '../spec.js';
import { answeredAs } from './head-requests.js';
import type { OperationMatch } from './operation.js';

export type OperationMatcher<Operation extends SpecOperation> = (
  method: string,
  path: string,
) => OperationMatch<Operation> | undefined;

interface CompiledTemplate<Operation> {
  operation: Operation;
  method: string;
  pattern: RegExp;
  names: string[];
}

function compiled<Operation extends SpecOperation>(operation: Operation): CompiledTemplate<Operation> {
  const names: string[] = [];
  const source = operation.template
    .split(/(\{[^}]+\})/)
    .map((part, index) => {
      if (index % 2 === 0) return part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
      names.push(part.slice(1, -1));
      return '([^/]+)';
    })
    .join('');
  return { operation, method: operation.method.toUpperCase(), pattern: new RegExp(`^${source}$`), names };
}

/** Finds the operation (of `operations`, the spec's by default) of a method and a full request path (base path included). */
export function operationMatcher<Operation extends SpecOperation = SpecOperation>(
  spec: OpenApiDocument,
  operations: readonly Operation[] = specOperations(spec) as Operation[],
): OperationMatcher<Operation> {
  const basePaths = apiBasePaths(spec);
  const templates = operations.map(compiled);
  const find = (method: string | undefined, below: string) => {
    for (const template of templates) {
      if (template.method !== method) continue;
      const values = template.pattern.exec(below);
      if (values) return { template, values };
    }
    return undefined;
  };
  return (method, path) => {
    for (const base of basePaths) {
      if (!path.startsWith(`${base}/`)) continue;
      const below = path.slice(base.length);
      const found = find(method, below) ?? find(answeredAs(method), below);
      if (!found) continue;
      const pathParameters: Record<string, string | undefined> = {};
      found.template.names.forEach((name, index) => {
        pathParameters[name] = decodedComponent(found.values[index + 1] ?? '');
      });
      return { operation: found.template.operation, pathParameters };
    }
    return undefined;
  };
}

/**
 * The methods that a full request path is answered to, as the validator lists them (HEAD before
 * GET), by `match`, a matcher of the spec's operations; none for a path of no operation.
 */
export function pathMethods(spec: OpenApiDocument, match: OperationMatcher<SpecOperation>): (path: string) => string[] {
  const methods = [
    ...new Set(
      specOperations(spec).flatMap(({ method }) => (method === 'get' ? ['HEAD', 'GET'] : [method.toUpperCase()])),
    ),
  ];
  return (path) => methods.filter((method) => match(method, path) !== undefined);
}
