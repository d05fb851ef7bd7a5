// The error every helper of the client throws for a non-2xx response.
import type { components } from '../generated/api.js';

type ErrorBody = components['schemas']['ErrorResponse'];
export type ErrorMetadata = NonNullable<ErrorBody['error']['metadata']>;

/** The server answers every request with its id in this header, the id its log line for the request has. */
const REQUEST_ID_HEADER = 'X-Request-Id';

/** The request an error answers; a `Request` is one. */
export type ErrorRequest = Pick<Request, 'method' | 'url'>;

interface Details {
  status: number;
  serverMessage: string;
  method: string | null;
  url: string | null;
  requestId: string | null;
}

/** `404 GET http://127.0.0.1:3000/api/v1/keys/abc (request id 3f2a…): Not found.` */
function oneLine({ status, serverMessage, method, url, requestId }: Details): string {
  const target = [status, method, url].filter(Boolean).join(' ');
  return `${target}${requestId === null ? '' : ` (request id ${requestId})`}: ${serverMessage}`;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The HTTP status. */
  declare readonly status: number;
  /** `error.code` of the envelope (equal to the status for this API). */
  declare readonly code: number;
  /** `error.message` of the envelope; without one, the reason phrase or `HTTP <status>`. */
  declare readonly serverMessage: string;
  /** `error.metadata`: for a 400, `errors` lists each failing field. */
  declare readonly metadata: ErrorMetadata | null;
  /** The response, for its headers (`Retry-After`, `ETag`, `WWW-Authenticate`). */
  declare readonly response: Response;
  /** The method of the request answered, when known. */
  declare readonly method: string | null;
  /** The URL of the request answered, when known. */
  declare readonly url: string | null;
  /** The id the server gave the request (`X-Request-Id`), to find its line in the server's log. */
  declare readonly requestId: string | null;

  /** `message` is one line: status, method, URL, request id and the server's message. */
  constructor(
    status: number,
    code: number,
    serverMessage: string,
    metadata: ErrorMetadata | null,
    response: Response,
    request?: ErrorRequest,
  ) {
    const fields = {
      status,
      code,
      serverMessage,
      metadata,
      response,
      method: request?.method ?? null,
      url: request?.url ?? (response.url || null),
      requestId: response.headers.get(REQUEST_ID_HEADER),
    };
    super(oneLine(fields));
    // Not enumerable, as `message` and `stack` are not: what prints an error with its own fields
    // (Node's util.inspect, console.error, an uncaught throw) then prints its one line and the stack,
    // not the whole Response. Nothing Node-only: browsers read them alike.
    for (const [field, value] of Object.entries(fields)) Object.defineProperty(this, field, { value });
  }

  /** Builds the error from a response and its parsed body, envelope or not, and the request it answers. */
  static from(response: Response, body: unknown, request?: ErrorRequest): ApiError {
    const envelope = (body as Partial<ErrorBody> | undefined)?.error;
    if (envelope && typeof envelope.code === 'number' && typeof envelope.message === 'string') {
      return new ApiError(
        response.status,
        envelope.code,
        envelope.message,
        envelope.metadata ?? null,
        response,
        request,
      );
    }
    return new ApiError(
      response.status,
      response.status,
      response.statusText || `HTTP ${response.status}`,
      null,
      response,
      request,
    );
  }
}
