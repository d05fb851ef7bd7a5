// The error every helper of the client throws for a non-2xx response.
import type { components } from '../generated/api.js';

type ErrorBody = components['schemas']['ErrorResponse'];
export type ErrorMetadata = NonNullable<ErrorBody['error']['metadata']>;

export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** `error.code` of the envelope (equal to the status for this API). */
    readonly code: number,
    message: string,
    /** `error.metadata`: for a 400, `errors` lists each failing field. */
    readonly metadata: ErrorMetadata | null,
    /** The response, for its headers (`Retry-After`, `ETag`, `WWW-Authenticate`). */
    readonly response: Response,
  ) {
    super(message);
  }

  /** Builds the error from a response and its parsed body, envelope or not. */
  static from(response: Response, body: unknown): ApiError {
    const envelope = (body as Partial<ErrorBody> | undefined)?.error;
    if (envelope && typeof envelope.code === 'number' && typeof envelope.message === 'string') {
      return new ApiError(response.status, envelope.code, envelope.message, envelope.metadata ?? null, response);
    }
    return new ApiError(
      response.status,
      response.status,
      response.statusText || `HTTP ${response.status}`,
      null,
      response,
    );
  }
}
