// One conformance run against a deployment: what it can learn first (the key works, the
// destination and preset exist), then every generated request, each answer checked, then the
// stateful sequences.

import fc from 'fast-check';
import { hashApiKey } from '../../server/domain/api-keys.js';
import type { Answer } from './check.js';
import { type Contract, operationById } from './contract.js';
import { attempt, CannotRun, cameBack, type Outcome, type RunOptions, sendOrThrow } from './exchange.js';
import { configOverrides } from './generate/arbitraries.js';
import {
  type ConformanceRequest,
  type Fixture,
  negativeRequests,
  plainRequest,
  validRequest,
} from './generate/requests.js';
import { httpChecks } from './http-checks.js';
import { sequences } from './sequences.js';

export interface RunResult {
  seed: number;
  outcomes: Outcome[];
  /** Why the run stopped before its end: the deployment stopped answering. */
  stopped?: string;
}

function explainRefusal(what: string, answer: Answer, baseUrl: string, contract: Contract): string {
  if (answer.status === 401) return `the deployment refused the key (401): give a key it knows (--key)`;
  if (answer.status === 403) return `the key is not a management key (403): --key takes a management key`;
  if (answer.status === 404 && !new URL(baseUrl).pathname.replace(/\/$/, '').endsWith(contract.basePath))
    return `${what} answered 404: is ${baseUrl} the API's base URL? The spec serves it under ${contract.basePath} (try --url ${baseUrl.replace(/\/$/, '')}${contract.basePath})`;
  return `${what} answered ${answer.status}: ${answer.text.slice(0, 200)}`;
}

/**
 * The answer of the operation for the object `value` names (its one path parameter), after which the
 * run may go on: a 200; anything else stops the run, said in one line.
 */
async function confirm(contract: Contract, options: KnownObjects, operationId: string, value: string, what: string) {
  const operation = operationById(contract, operationId);
  const [parameter] = operation.parameters.filter((p) => p.in === 'path');
  if (!parameter) throw new Error(`${operationId} has no path parameter`);
  const request = plainRequest(operation, { [operationId]: { [parameter.name]: [{ value }] } }, 'preflight');
  const answer = await sendOrThrow(options.baseUrl, request, options.key);
  if (answer.status !== 200) throw new CannotRun(explainRefusal(what, answer, options.baseUrl, contract));
  return { name: parameter.name, answer };
}

/** The deployment and the objects of it that a run is given. */
export type KnownObjects = Pick<RunOptions, 'baseUrl' | 'key' | 'standardKey' | 'destination' | 'preset'>;

/**
 * Checks what the run needs and learns the destination's type: the fixture of known objects. A
 * deployment that cannot be reached, or refuses a key or an object, is a CannotRun saying so.
 */
export async function preflight(contract: Contract, options: KnownObjects): Promise<Fixture> {
  const hashes = [options.key, options.standardKey].flatMap((key) => (key ? [hashApiKey(key)] : []));
  const key = await confirm(contract, options, 'getKey', hashes[0] ?? '', 'reading the key itself');
  const fixture: Fixture = { getKey: { [key.name]: hashes.map((value) => ({ value })) } };
  if (options.destination) {
    const what = `--destination ${options.destination}`;
    const { name, answer } = await confirm(
      contract,
      options,
      'updateObservabilityDestination',
      options.destination,
      what,
    );
    const type = (JSON.parse(answer.text) as { data?: { type?: string } }).data?.type ?? '';
    fixture.updateObservabilityDestination = {
      [name]: [{ value: options.destination, overrides: configOverrides(type) }],
    };
  }
  if (options.preset) {
    const { name } = await confirm(
      contract,
      options,
      'listPresetVersions',
      options.preset,
      `--preset ${options.preset}`,
    );
    fixture.listPresetVersions = { [name]: [{ value: options.preset }] };
  }
  return fixture;
}

/** The generated requests of a run: every negative one (with --negative), then valid ones up to the count. */
export function generatedRequests(contract: Contract, fixture: Fixture, options: RunOptions): ConformanceRequest[] {
  const negatives = options.negative ? negativeRequests(contract, fixture) : [];
  const valid = contract.operations.flatMap((operation) => {
    const own = negatives.filter((r) => r.operationId === operation.operationId).length;
    const count = Math.max(options.requests - own, Math.ceil(options.requests / 5));
    return fc.sample(validRequest(operation, fixture), { seed: options.seed, numRuns: count });
  });
  return [...negatives, ...valid];
}

export async function runConformance(contract: Contract, options: RunOptions): Promise<RunResult> {
  const fixture = await preflight(contract, options);
  const requests = generatedRequests(contract, fixture, options);
  const outcomes: Outcome[] = [];
  for (const [index, request] of requests.entries()) {
    if (options.only !== undefined && index !== options.only) continue;
    const outcome = await attempt(contract, options.baseUrl, request, options.key, 'management', index);
    outcomes.push(outcome);
    if (!outcome.answer && !(await cameBack(options.baseUrl)))
      return { seed: options.seed, outcomes, stopped: `${options.baseUrl} stopped answering after request ${index}` };
  }
  if (options.only === undefined) outcomes.push(...(await sequences(contract, options, fixture)));
  if (options.only === undefined && options.negative)
    outcomes.push(...(await httpChecks(options, hashApiKey(options.key))));
  return { seed: options.seed, outcomes };
}
