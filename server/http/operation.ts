// An operation of openapi.yaml as the server serves it, made once at start by binding the spec to
// its handlers (operations/bind.ts): what the spec says of it, the facts the request path reads of
// it, and its handler. And a request's match to one.
import type { KeyKind } from '../domain/api-keys.js';
import type { SpecOperation } from '../spec.js';

/** A handler of some operation: its request type is checked where the table of handlers is written (operations/index.ts). */
export type AnyHandler = (request: never, deps: never) => Promise<unknown>;

export interface Operation extends SpecOperation {
  readonly operationId: string;
  /** The key kinds its security requirement accepts. */
  readonly acceptedKeyKinds: readonly KeyKind[];
  /** Its header parameters, under their names in the spec. */
  readonly headerParameters: readonly string[];
  /** The Cache-Control its success answer documents. */
  readonly cacheControl: string;
  readonly handler: AnyHandler;
}

/** The operation (of the server's, or of the spec's alone) that a request is for, and its path's parameters. */
export interface OperationMatch<Matched extends SpecOperation = Operation> {
  operation: Matched;
  /** By the template's names, decoded once; undefined where not percent-encoded UTF-8. */
  pathParameters: Record<string, string | undefined>;
}
