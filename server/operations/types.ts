// What a handler of an operation of openapi.yaml receives and returns, typed from the generated
// `operations`: a handler cannot read a parameter or return a body that the contract lacks.
import type { operations } from '../../generated/api.js';
import type { Caller } from '../domain/api-keys.js';
import type { DestinationType, DestinationTypeRules } from '../domain/destination-config-rules.js';
import type { Clock } from '../domain/time.js';
import type { CallTrace } from '../store/call-trace.js';
import type { Store } from '../store/store.js';
import type { JsonText } from './json-text.js';

export type OperationId = keyof operations;

type Parameters<K extends OperationId> = operations[K]['parameters'];
type JsonContent<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

export interface OperationRequest<K extends OperationId> {
  path: Parameters<K>['path'];
  /** Validated against the spec, with the spec's defaults filled in. */
  query: Parameters<K>['query'];
  /** The header parameters the operation declares, under their names in the spec. */
  headers: Parameters<K>['header'];
  body: JsonContent<operations[K]['requestBody']>;
  caller: Caller;
  /** A sampled request's calls are recorded here, for its trace: handed to each store call. */
  trace: CallTrace | undefined;
}

type SuccessStatus = 200 | 201 | 202 | 203;
type Responses<K extends OperationId> = operations[K]['responses'];

/**
 * One of the operation's 2xx responses: its status, its body (or that body's JSON text, made
 * elsewhere) and the headers the handler sets.
 */
export type OperationResult<K extends OperationId> =
  | {
      [S in Extract<keyof Responses<K>, SuccessStatus>]: {
        status: S;
        body: JsonContent<Responses<K>[S]> | JsonText<JsonContent<Responses<K>[S]>>;
        headers?: Record<string, string>;
      };
    }[Extract<keyof Responses<K>, SuccessStatus>]
  | NotModified<K>;

/** 304, for an operation that documents it: no body, the headers the handler sets (its ETag). */
type NotModified<K extends OperationId> = 304 extends keyof Responses<K>
  ? { status: 304; headers: Record<string, string> }
  : never;

/** What the handlers need, injected by createApp. */
export interface OperationDeps {
  store: Store;
  clock: Clock;
  /** openapi.yaml's info.version: what a representation is written to. */
  contractVersion: string;
  destinationTypes: ReadonlyMap<DestinationType, DestinationTypeRules>;
}

export type Handler<K extends OperationId> = (
  request: OperationRequest<K>,
  deps: OperationDeps,
) => Promise<OperationResult<K>>;

/** One handler per operation of the spec, and nothing else. */
export type OperationHandlers = { [K in OperationId]: Handler<K> };
