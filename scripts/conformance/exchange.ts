// Sending one generated request and judging its answer: a 429 is checked like any answer, then
// waited out (Retry-After) and the request sent again; a deployment that cannot be reached stops the run.
import { setTimeout as sleep } from 'node:timers/promises';
import { type Answer, answerProblems } from './check.js';
import { type Contract, operationById } from './contract.js';
import type { ConformanceRequest } from './generate/requests.js';
import { send } from './send.js';

export interface RunOptions {
  /** Where the spec's paths are served: `http://127.0.0.1:3000/api/v1`. */
  baseUrl: string;
  key: string;
  standardKey?: string;
  /** The one destination the run may write to. */
  destination?: string;
  preset?: string;
  seed: number;
  /** At least this many requests per operation. */
  requests: number;
  negative: boolean;
  /** Only the generated request of this index (a replay). */
  only?: number;
}

export interface Outcome {
  /** The generated request's index in its run, for --case; -1 for a step of a sequence. */
  index: number;
  request: ConformanceRequest;
  /** The key sent, by kind; `none` for a request sent without one. */
  keyKind: 'management' | 'standard' | 'none';
  answer?: Answer;
  problems: string[];
}

/** The run cannot start: the deployment is not there, or does not take the key or the objects given. */
export class CannotRun extends Error {}

const MAX_WAITS = 5;
const MAX_WAIT_SECONDS = 60;

export async function sendOrThrow(
  baseUrl: string,
  request: ConformanceRequest,
  key: string | undefined,
): Promise<Answer> {
  try {
    return await send(baseUrl, request, key);
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new CannotRun(`cannot reach ${baseUrl}: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
}

/** Sends a request; a 429 is checked, then waited out (Retry-After) and the request sent again. */
export async function exchange(
  contract: Contract,
  baseUrl: string,
  request: ConformanceRequest,
  key: string | undefined,
): Promise<{ answer: Answer; problems: string[] }> {
  const operation = operationById(contract, request.operationId);
  for (let waits = 0; ; waits++) {
    const answer = await sendOrThrow(baseUrl, request, key);
    if (answer.status !== 429 || waits === MAX_WAITS) {
      const head = request.method === 'HEAD';
      return { answer, problems: answerProblems(contract, operation, request.expect, answer, head) };
    }
    const limited = answerProblems(contract, operation, { kind: 'accepted', statuses: [429] }, answer);
    if (limited.length > 0) return { answer, problems: limited };
    const seconds = Math.min(Number(answer.headers.get('retry-after') ?? '1') || 1, MAX_WAIT_SECONDS);
    await sleep(seconds * 1000);
  }
}

/** Sends a request and judges its answer; a request that gets no answer is a failure of its own. */
export async function attempt(
  contract: Contract,
  baseUrl: string,
  request: ConformanceRequest,
  key: string | undefined,
  keyKind: Outcome['keyKind'] = 'management',
  index = -1,
): Promise<Outcome> {
  try {
    return { index, request, keyKind, ...(await exchange(contract, baseUrl, request, key)) };
  } catch (err) {
    if (!(err instanceof CannotRun)) throw err;
    return { index, request, keyKind, problems: [`no answer: ${err.message}`] };
  }
}

const COMEBACK_MS = 30_000;

/** Whether the deployment answers anything again within 30 s, after a request it did not answer. */
export async function cameBack(baseUrl: string): Promise<boolean> {
  const deadline = Date.now() + COMEBACK_MS;
  while (Date.now() < deadline) {
    try {
      await fetch(baseUrl, { signal: AbortSignal.timeout(2_000) });
      return true;
    } catch {
      await sleep(500);
    }
  }
  return false;
}
