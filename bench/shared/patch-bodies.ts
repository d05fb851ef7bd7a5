// The bodies of the benchmark's PATCHes. A writing PATCH sends a sampling rate that no other request
// of the process has sent, so that every PATCH changes the row, whichever connection sends it and
// whatever the others sent before. The no-op PATCH sends one body over and over: past the first,
// each finds its value stored already and writes nothing, a scenario of its own.

/** Distinct rates before they repeat: far more than the requests of a run. */
const DISTINCT_RATES = 2 ** 20;
let sent = 0;

/** The body of the next writing PATCH: a sampling rate in [0.5, 1), a binary fraction JSON writes exactly. */
export function writingPatchBody(): string {
  sent += 1;
  return `{"sampling_rate":${0.5 + (sent % DISTINCT_RATES) / (2 * DISTINCT_RATES)}}`;
}

/** The body of the no-op PATCH, sent over and over: a rate no writing PATCH sends. */
export const NO_OP_PATCH_BODY = '{"sampling_rate":0.25}';
