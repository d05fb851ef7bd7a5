// HEAD is answered wherever the spec has a GET (RFC 9110, section 9.3.2): as that GET operation,
// with its checks, rate limit, status and headers, and without the body. Express's routes and
// res.send do that by themselves; the layers that look a request's operation up by its method
// (the operation matcher, express-openapi-validator) learn it here.
import type { OpenApiDocument } from '../spec.js';

/** The method whose operation answers a request method when its path has no operation of that method: HEAD's is GET. */
export function answeredAs(requestMethod: string): string | undefined {
  return requestMethod === 'HEAD' ? 'GET' : undefined;
}

/**
 * A copy of the spec in which every path with a GET and no HEAD of its own has a HEAD, the GET
 * operation without its operationId (which must stay unique): the validator then checks a HEAD
 * request and its answer as its GET's, and lists HEAD beside GET in the `Allow` of a 405.
 */
export function withHeadOperations(spec: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(spec);
  for (const pathItem of Object.values(copy.paths)) {
    if (!pathItem.get || pathItem.head) continue;
    const { operationId: _unique, ...head } = structuredClone(pathItem.get);
    pathItem.head = head as typeof pathItem.get;
  }
  return copy;
}
