// The request path's first layer under the API, "operation match": the operation of openapi.yaml
// that a request is for, found once by its method and its path below one of the spec's server
// URLs, with the path's parameters decoded. The validator takes this match (validator.ts) and
// does not look the route up again. A request of no operation is answered here, before any key:
// 404, or 405 with the methods its path takes. HEAD is answered wherever the spec has a GET (RFC
// 9110, section 9.3.2), as that GET operation: this is the one place that knows it.
import type { RequestHandler } from 'express';
import { noOperationError } from '../http/errors.js';
import { type MatchedRoute, requestContext } from '../http/request-context.js';
import { apiBasePaths, HTTP_METHODS, type OpenApiDocument } from '../spec.js';
import { decodedComponent } from './not-utf8.js';
import type { Operation } from './operation.js';

/** The operation a request is for, and where it was found. */
export interface FoundOperation extends MatchedRoute {
  operation: Operation;
}

/** The method whose operation answers a request method when its path has no operation of that method: HEAD's is GET. */
function answeredAs(requestMethod: string): string | undefined {
  return requestMethod === 'HEAD' ? 'GET' : undefined;
}

interface CompiledTemplate {
  operation: Operation;
  method: string;
  pattern: RegExp;
  names: string[];
}

function compiled(operation: Operation): CompiledTemplate {
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

/** The request methods in the order a 405's `Allow` lists them. */
const ALLOW_ORDER = ['HEAD', ...HTTP_METHODS.filter((method) => method !== 'head').map((m) => m.toUpperCase())];

/** The operations of the spec, found by a request's method and full path (base path included). */
export class OperationTable {
  readonly #basePaths: readonly string[];
  readonly #templates: readonly CompiledTemplate[];

  constructor(spec: OpenApiDocument, operations: readonly Operation[]) {
    this.#basePaths = apiBasePaths(spec);
    this.#templates = operations.map(compiled);
  }

  find(method: string, path: string): FoundOperation | undefined {
    for (const basePath of this.#basePaths) {
      if (!path.startsWith(`${basePath}/`)) continue;
      const below = path.slice(basePath.length);
      const found = this.#below(method, below) ?? this.#below(answeredAs(method), below);
      if (!found) continue;
      const pathParameters: Record<string, string | undefined> = {};
      found.template.names.forEach((name, index) => {
        pathParameters[name] = decodedComponent(found.values[index + 1] ?? '');
      });
      return { operation: found.template.operation, basePath, pathParameters };
    }
    return undefined;
  }

  /** The methods a full request path is answered to; none for a path of no operation. */
  allowedMethods(path: string): string[] {
    return ALLOW_ORDER.filter((method) => this.find(method, path) !== undefined);
  }

  #below(method: string | undefined, below: string) {
    for (const template of this.#templates) {
      if (template.method !== method) continue;
      const values = template.pattern.exec(below);
      if (values) return { template, values };
    }
    return undefined;
  }
}

/** The layer: the operation found once into the request's context, or the 404 or 405 of a request for none. */
export function matchOperation(table: OperationTable): RequestHandler {
  return (req, _res, next) => {
    const [path = ''] = req.originalUrl.split('?', 1);
    const found = table.find(req.method, path);
    if (!found) throw noOperationError(table.allowedMethods(path));
    const context = requestContext(req);
    context.operation = found.operation;
    context.route = { basePath: found.basePath, pathParameters: found.pathParameters };
    next();
  };
}
