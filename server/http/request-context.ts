// What the server knows of one request, in one typed object kept on the request itself, so that it
// goes when the request goes: the layers of the request path write it in their order and read it
// from here, and nothing of it is kept anywhere else.
import type { IncomingMessage } from 'node:http';
import type { Caller } from '../domain/api-keys.js';
import type { CallTrace } from '../store/call-trace.js';
import type { Operation } from '../validation/operation.js';

/** The request's place in a trace, when tracing is on (telemetry/request-span.ts). */
export interface RequestTrace {
  /** The caller's trace (its traceparent), or the request's own when it is sampled. */
  readonly traceId: string;
  /** The request's span, when it is sampled. */
  readonly spanId?: string;
  /** Where the store and the limiter record the calls of a sampled request; absent when it is not sampled. */
  readonly calls?: CallTrace;
}

/** Where a request's operation was found: the base path it came in by, and its path's parameters. */
export interface MatchedRoute {
  /** `/api/v1`. */
  readonly basePath: string;
  /** By the template's names, decoded once; undefined where not percent-encoded UTF-8. */
  readonly pathParameters: Record<string, string | undefined>;
}

export interface RequestContext {
  /** One of the server's own requests at start (warm-up.ts), which are not traffic. */
  readonly warmUp: boolean;
  /** The client waits for `100 Continue` before it sends the body (request-body.ts). */
  awaitingContinue: boolean;
  /** The operation the request is for, found once (validation/operation-match.ts); absent for a path and method of none. */
  operation?: Operation;
  /** The base path it came in by and its path's parameters, with the operation. */
  route?: MatchedRoute;
  /** The body, once read, was empty. */
  emptyBody: boolean;
  /** The body's bytes as sent, when they are not all UTF-8: the JSON parser read them as U+FFFD. */
  notUtf8Body?: Uint8Array;
  /** The calling key, once authenticated (auth.ts). */
  caller?: Caller;
  /** Set by tracing at the start of a request that is sampled or continues a caller's trace. */
  trace?: RequestTrace;
}

const CONTEXT = Symbol('request context');

type HoldsContext = IncomingMessage & { [CONTEXT]?: RequestContext };

function newContext(warmUp: boolean): RequestContext {
  return { warmUp, awaitingContinue: false, emptyBody: false };
}

/** The request's context, made on first use. */
export function requestContext(req: IncomingMessage): RequestContext {
  const holder = req as HoldsContext;
  holder[CONTEXT] ??= newContext(false);
  return holder[CONTEXT];
}

/** For the warm-up's own server, as a request arrives there. */
export function receivedForWarmUp(req: IncomingMessage): void {
  (req as HoldsContext)[CONTEXT] = newContext(true);
}

/** The operation the request is for; undefined for none, or before the operation match. */
export function operationOf(req: IncomingMessage): Operation | undefined {
  return (req as HoldsContext)[CONTEXT]?.operation;
}

/** The operation of a request past the operation match (validation/operation-match.ts), which answers every other. */
export function matchedOperation(req: IncomingMessage): Operation {
  const operation = (req as HoldsContext)[CONTEXT]?.operation;
  if (!operation) throw new Error('A layer that needs the operation runs before the operation match.');
  return operation;
}

/** The path's parameters and base path of a request past the operation match. */
export function matchedRoute(req: IncomingMessage): MatchedRoute {
  const route = (req as HoldsContext)[CONTEXT]?.route;
  if (!route) throw new Error('A layer that needs the path parameters runs before the operation match.');
  return route;
}

/** Whether the request is one of the warm-up's own. */
export function isWarmUpRequest(req: IncomingMessage): boolean {
  return (req as HoldsContext)[CONTEXT]?.warmUp === true;
}

/** The calling key of a request past authentication. */
export function authenticatedCaller(req: IncomingMessage): Caller {
  const caller = (req as HoldsContext)[CONTEXT]?.caller;
  if (!caller) throw new Error('A layer that needs the caller runs before authentication.');
  return caller;
}

/** Where a sampled request's calls are recorded; undefined for a request that is not sampled. */
export function callTraceOf(req: IncomingMessage): CallTrace | undefined {
  return (req as HoldsContext)[CONTEXT]?.trace?.calls;
}
