// How many runs a property makes, how long it may take, and how a failure is replayed:
// FC_SEED=<seed> (and FC_PATH=<path>) from its report. FC_RUNS lowers the count where each run
// of the suite is one of many (the mutation run).
import type fc from 'fast-check';

export const RUNS = process.env.FC_RUNS === undefined ? 2000 : Number(process.env.FC_RUNS);

/** The properties are bounded by their number of runs; time only tells how busy the machine is. */
export const PROPERTY_TIMEOUT_MS = 120_000;

const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);

export function runParameters(numRuns: number): fc.Parameters<unknown> {
  return {
    // fast-check never ends a run count that is not a whole number (half of an odd FC_RUNS).
    numRuns: Math.ceil(numRuns),
    ...(seed !== undefined && { seed }),
    ...(process.env.FC_PATH && { path: process.env.FC_PATH }),
    endOnFailure: true,
  };
}
