// The calls a sampled request makes outside the process (a statement, a count in Redis), kept as
// plain numbers while it runs; tracing makes them its span's children once it ends. The store and
// the limiter are handed the request's list: a request that is not sampled hands them none, and
// nothing records it. Only types live here: what records a call is tracing's (telemetry/).

export interface TracedCall {
  /** What the call does, as `keys.byHash`: never its parameters. */
  name: string;
  attributes: Readonly<Record<string, string>>;
  /** `performance.now()` when it began and ended. */
  startedAt: number;
  endedAt: number;
  /** The class of the Error it failed with. */
  errorType?: string;
}

/** The calls of one sampled request, in the order they ended. */
export type CallTrace = TracedCall[];
