// What the server knows of one request, in one typed object kept on the request itself, so that it
// goes when the request goes: the layers of the request path write it in their order and read it
// from here, and nothing of it is kept anywhere else.
import type { IncomingMessage } from 'node:http';
import type { Caller } from '../domain/api-keys.js';
import type { FieldError } from '../domain/field-errors.js';
import type { CallTrace } from '../store/call-trace.js';
import type { OperationMatch } from './operation.js';

/** The request's place in a trace, when tracing is on (telemetry/request-span.ts). */
export interface RequestTrace {
  /** The caller's trace (its traceparent), or the request's own when it is sampled. */
  readonly traceId: string;
  /** The request's span, when it is sampled. */
  readonly spanId?: string;
  /** Where the store and the limiter record the calls of a sampled request; absent when it is not sampled. */
  readonly calls?: CallTrace;
}

export interface RequestContext {
  /** One of the server's own requests at start (warm-up.ts), which are not traffic. */
  readonly warmUp: boolean;
  /** The client waits for `100 Continue` before it sends the body (request-body.ts). */
  awaitingContinue: boolean;
  /** The operation the request is for, found once (operation-match.ts); absent for a path and method of none. */
  match?: OperationMatch;
  /** The body, once read, was empty. */
  emptyBody: boolean;
  /** The body's bytes as sent, when they are not all UTF-8: the JSON parser read them as U+FFFD. */
  notUtf8Body?: Uint8Array;
  /** Field errors found before the validator ran, for the 400 that names every failing field (bad-request.ts). */
  fieldErrors: FieldError[];
  /** The calling key, once authenticated (auth.ts). */
  caller?: Caller;
  /** Set by tracing at the start of a request that is sampled or continues a caller's trace. */
  trace?: RequestTrace;
}

const CONTEXT = Symbol('request context');

type HoldsContext = IncomingMessage & { [CONTEXT]?: RequestContext };

function newContext(warmUp: boolean): RequestContext {
  return { warmUp, awaitingContinue: false, emptyBody: false, fieldErrors: [] };
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

/** The operation the request is for, as found before the validator ran; undefined for none. */
export function matchOf(req: IncomingMessage): OperationMatch | undefined {
  return (req as HoldsContext)[CONTEXT]?.match;
}

/** The operation of a request past the operation match (operation-match.ts), which answers every other. */
export function matchedOperation(req: IncomingMessage): OperationMatch {
  const match = (req as HoldsContext)[CONTEXT]?.match;
  if (!match) throw new Error('A layer that needs the operation runs before the operation match.');
  return match;
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
