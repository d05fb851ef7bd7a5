// One conformance run against a deployment: what it can learn first (the key works, the
// destination and preset exist), then every generated request, each answer checked, then the
// stateful sequences.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { Answer } from './check.js';
import { type Contract, type ContractOperation, operationById } from './contract.js';
import { attempt, CannotRun, cameBack, type Outcome, type RunOptions, sendOrThrow } from './exchange.js';
import { configOverrides } from './generate/arbitraries.js';
import {
  acceptedStatuses,
  type ConformanceRequest,
  type Fixture,
  negativeRequests,
  validRequest,
} from './generate/requests.js';
import { sequences } from './sequences.js';

export interface RunResult {
  seed: number;
  outcomes: Outcome[];
  /** Why the run stopped before its end: the deployment stopped answering. */
  stopped?: string;
}

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** A request of the operation to the objects given, with no query: the carrier of the preflight. */
function plainRequest(operation: ContractOperation, path: Record<string, string>, body?: string): ConformanceRequest {
  const target = operation.template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(path[name] ?? ''));
  return {
    operationId: operation.operationId,
    method: operation.method,
    target,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body !== undefined && { body }),
    label: 'preflight',
    expect: { kind: 'accepted', statuses: acceptedStatuses(operation, true) },
  };
}

function pathParameterOf(operation: ContractOperation): string {
  const [parameter] = operation.parameters.filter((p) => p.in === 'path');
  if (!parameter) throw new Error(`${operation.operationId} has no path parameter`);
  return parameter.name;
}

function explainRefusal(what: string, answer: Answer, baseUrl: string, contract: Contract): string {
  if (answer.status === 401) return `the deployment refused the key (401): give a key it knows (--key)`;
  if (answer.status === 403) return `the key is not a management key (403): --key takes a management key`;
  if (answer.status === 404 && !new URL(baseUrl).pathname.replace(/\/$/, '').endsWith(contract.basePath))
    return `${what} answered 404: is ${baseUrl} the API's base URL? The spec serves it under ${contract.basePath} (try --url ${baseUrl.replace(/\/$/, '')}${contract.basePath})`;
  return `${what} answered ${answer.status}: ${answer.text.slice(0, 200)}`;
}

/** Checks what the run needs and learns the destination's type: the fixture of known objects. */
async function preflight(contract: Contract, options: RunOptions): Promise<Fixture> {
  const getKey = operationById(contract, 'getKey');
  const hashes = [options.key, options.standardKey].flatMap((key) => (key ? [sha256Hex(key)] : []));
  const keyAnswer = await sendOrThrow(
    options.baseUrl,
    plainRequest(getKey, { [pathParameterOf(getKey)]: hashes[0] ?? '' }),
    options.key,
  );
  if (keyAnswer.status !== 200)
    throw new CannotRun(explainRefusal('reading the key itself', keyAnswer, options.baseUrl, contract));
  const fixture: Fixture = {
    getKey: { [pathParameterOf(getKey)]: hashes.map((value) => ({ value })) },
  };
  if (options.destination) {
    const update = operationById(contract, 'updateObservabilityDestination');
    const name = pathParameterOf(update);
    const answer = await sendOrThrow(
      options.baseUrl,
      plainRequest(update, { [name]: options.destination }, '{}'),
      options.key,
    );
    if (answer.status !== 200)
      throw new CannotRun(explainRefusal(`--destination ${options.destination}`, answer, options.baseUrl, contract));
    const type = (JSON.parse(answer.text) as { data?: { type?: string } }).data?.type ?? '';
    fixture.updateObservabilityDestination = {
      [name]: [{ value: options.destination, overrides: configOverrides(type) }],
    };
  }
  if (options.preset) {
    const list = operationById(contract, 'listPresetVersions');
    const name = pathParameterOf(list);
    const answer = await sendOrThrow(options.baseUrl, plainRequest(list, { [name]: options.preset }), options.key);
    if (answer.status !== 200)
      throw new CannotRun(explainRefusal(`--preset ${options.preset}`, answer, options.baseUrl, contract));
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
  return { seed: options.seed, outcomes };
}
