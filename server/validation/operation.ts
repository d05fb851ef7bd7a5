// An operation of openapi.yaml as the server serves it, made once at start from the spec and its
// handler (operations/bind.ts): what the request path, the conformance command and the tests read
// of it, and its handler.
import type { KeyKind } from '../domain/api-keys.js';
import type { HttpMethod, OpenApiOperation, SpecParameter } from '../spec.js';

/** A handler of some operation: its request type is checked where the table of handlers is written (operations/index.ts). */
export type AnyHandler = (request: never, deps: never) => Promise<unknown>;

export interface Operation {
  /** Its operationId. */
  readonly id: string;
  readonly method: HttpMethod;
  /** The path template as the spec writes it, `/keys/{hash}`. */
  readonly template: string;
  /** The path item's parameters and the operation's own, `$ref`s followed. */
  readonly parameters: readonly SpecParameter[];
  /** Its JSON request body: the pointer of the body's schema, and whether a body is required; undefined when it takes none. */
  readonly body: { readonly schemaPointer: string; readonly required: boolean } | undefined;
  /** The key kinds its security requirement accepts. */
  readonly keyKinds: readonly KeyKind[];
  /** Its header parameters, under their names in the spec. */
  readonly headerParameters: readonly string[];
  /** The Cache-Control its success answer documents. */
  readonly cacheControl: string;
  /** The operation object as openapi.yaml writes it: its responses, its request body's media types. */
  readonly definition: OpenApiOperation;
  readonly handler: AnyHandler;
}
