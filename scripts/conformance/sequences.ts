// The checks that take more than one request, where the contract allows them: no key and the
// wrong kind of key on every operation; HEAD beside each GET; a PATCH's ETag sent back as
// If-Match, then a stale one; the pages of a preset adding up to its total_count, no version twice.
import type { Contract } from './contract.js';
import { attempt, type Outcome, type RunOptions } from './exchange.js';
import { type Fixture, plainRequest } from './generate/requests.js';

const json = (text: string | undefined): Record<string, unknown> | undefined => {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    return undefined;
  }
};

async function keySequences(contract: Contract, options: RunOptions, fixture: Fixture): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const operation of contract.operations) {
    const noKey = plainRequest(operation, fixture, 'no key: 401 with WWW-Authenticate');
    noKey.expect = { kind: 'accepted', statuses: [401] };
    const refusal = await attempt(contract, options.baseUrl, noKey, undefined, 'none');
    if (refusal.answer?.status === 401 && !refusal.answer.headers.get('www-authenticate'))
      refusal.problems.push('a 401 without WWW-Authenticate');
    outcomes.push(refusal);
    if (!options.standardKey) continue;
    const refused = !operation.keyKinds.includes('standard');
    const standard = plainRequest(
      operation,
      fixture,
      refused ? 'a standard key where the spec takes only other kinds: 403' : 'a standard key where the spec takes one',
    );
    if (refused) standard.expect = { kind: 'accepted', statuses: [403] };
    const outcome = await attempt(contract, options.baseUrl, standard, options.standardKey, 'standard');
    if (refused && outcome.answer?.status === 403) {
      const metadata = json(outcome.answer.text)?.error as { metadata?: { accepted_key_kinds?: string[] } } | undefined;
      const kinds = metadata?.metadata?.accepted_key_kinds;
      if (JSON.stringify([...(kinds ?? [])].sort()) !== JSON.stringify([...operation.keyKinds].sort()))
        outcome.problems.push(
          `metadata.accepted_key_kinds is ${JSON.stringify(kinds)}, the spec says ${JSON.stringify(operation.keyKinds)}`,
        );
    }
    outcomes.push(outcome);
  }
  return outcomes;
}

/** Every GET also answers HEAD (openapi.yaml, "HEAD"): the same status and headers, no body. */
async function headSequences(contract: Contract, options: RunOptions, fixture: Fixture): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const operation of contract.operations.filter((o) => o.method === 'GET')) {
    const get = await attempt(
      contract,
      options.baseUrl,
      plainRequest(operation, fixture, 'GET, then HEAD'),
      options.key,
    );
    outcomes.push(get);
    if (!get.answer) continue;
    const headRequest = { ...plainRequest(operation, fixture, 'HEAD: as its GET, without the body'), method: 'HEAD' };
    const head = await attempt(contract, options.baseUrl, headRequest, options.key);
    if (head.answer) {
      if (head.answer.status !== get.answer.status)
        head.problems.push(`HEAD answered ${head.answer.status}, its GET ${get.answer.status}`);
      if (head.answer.text !== '') head.problems.push('HEAD answered with a body');
      for (const name of ['content-type', 'content-length', 'etag'])
        if (head.answer.headers.get(name) !== get.answer.headers.get(name))
          head.problems.push(
            `HEAD's ${name} is ${head.answer.headers.get(name)}, its GET's ${get.answer.headers.get(name)}`,
          );
    }
    outcomes.push(head);
  }
  return outcomes;
}

const etagOf = (outcome: Outcome) => outcome.answer?.headers.get('etag') ?? '';
const nameOf = (outcome: Outcome) => (json(outcome.answer?.text)?.data as { name?: unknown } | undefined)?.name;

/** PATCH {} changes nothing; a change with the current ETag is taken; the stale ETag is 412 and changes nothing. */
async function etagSequence(contract: Contract, options: RunOptions, fixture: Fixture): Promise<Outcome[]> {
  const operation = contract.operations.find((o) => o.operationId === 'updateObservabilityDestination');
  if (!operation || !options.destination) return [];
  const outcomes: Outcome[] = [];
  const step = async (label: string, body: string, ifMatch: string | undefined, statuses: number[]) => {
    const request = plainRequest(operation, fixture, `If-Match sequence: ${label}`);
    request.body = body;
    if (ifMatch !== undefined) request.headers['if-match'] = ifMatch;
    request.expect = { kind: 'accepted', statuses };
    const outcome = await attempt(contract, options.baseUrl, request, options.key);
    outcomes.push(outcome);
    if (!outcome.answer) throw new StopSequence();
    return outcome;
  };
  try {
    const read = await step('read with an empty PATCH', '{}', undefined, [200]);
    const original = nameOf(read);
    const reread = await step('an empty PATCH again changes nothing', '{}', undefined, [200]);
    const stableEmpty = etagOf(read) !== '' && etagOf(reread) === etagOf(read);
    if (!etagOf(read)) read.problems.push('a 200 of PATCH without an ETag');
    else if (!stableEmpty)
      reread.problems.push(`an empty PATCH changed the ETag (${etagOf(read)} to ${etagOf(reread)})`);
    const marker = `conformance ${options.seed}`;
    const changed = await step(
      'a change with the current ETag',
      JSON.stringify({ name: marker }),
      etagOf(reread),
      [200],
    );
    if (etagOf(changed) === etagOf(reread)) changed.problems.push('the ETag did not change with the destination');
    await step('the same change again with the stale ETag', JSON.stringify({ name: 'stale' }), etagOf(reread), [412]);
    const after = await step('read after the 412', '{}', undefined, [200]);
    if (nameOf(after) !== marker)
      after.problems.push(`the 412 changed the destination (name ${JSON.stringify(nameOf(after))})`);
    else if (stableEmpty && etagOf(after) !== etagOf(changed)) after.problems.push('the 412 changed the ETag');
    const any = await step('If-Match: * matches any version', '{}', '*', [200]);
    if (typeof original === 'string')
      await step('the name put back', JSON.stringify({ name: original }), etagOf(any), [200]);
  } catch (err) {
    if (!(err instanceof StopSequence)) throw err;
  }
  return outcomes;
}

/** A step of a sequence had no answer: the rest of the sequence cannot be judged. */
class StopSequence extends Error {}

/** Walks every page of the preset at a few limits: versions ascending, none twice, as many as total_count. */
async function pageSequence(contract: Contract, options: RunOptions, fixture: Fixture): Promise<Outcome[]> {
  const operation = contract.operations.find((o) => o.operationId === 'listPresetVersions');
  if (!operation || !options.preset) return [];
  const outcomes: Outcome[] = [];
  for (const limit of [1, 2, 7, 100]) {
    const seen: number[] = [];
    let total = Number.NaN;
    let offset = 0;
    for (let pages = 0; pages < 10_000; pages++) {
      const request = plainRequest(operation, fixture, `pages of ${limit}: offset ${offset}`);
      request.target = `${request.target}?limit=${limit}&offset=${offset}`;
      const outcome = await attempt(contract, options.baseUrl, request, options.key);
      outcomes.push(outcome);
      if (outcome.answer?.status !== 200) break;
      const page = json(outcome.answer.text) as { data: ({ version: number } | null)[]; total_count: number };
      total = page.total_count;
      if (page.data.length > limit) outcome.problems.push(`a page of ${page.data.length} versions for limit=${limit}`);
      const versions = page.data.flatMap((v) => (v ? [v.version] : []));
      seen.push(...versions);
      const last = versions.at(-1);
      if (last === undefined || seen.length >= total) break;
      offset = last;
    }
    const final = outcomes.at(-1);
    const ascending = seen.every((v, i) => i === 0 || v > (seen[i - 1] ?? 0));
    if (final && new Set(seen).size !== seen.length)
      final.problems.push(`pages of ${limit} repeat a version: ${seen.join(',')}`);
    else if (final && !ascending)
      final.problems.push(`pages of ${limit} are not in ascending order: ${seen.join(',')}`);
    if (final && seen.length !== total)
      final.problems.push(`pages of ${limit} add up to ${seen.length}, total_count is ${total}`);
  }
  return outcomes;
}

export async function sequences(contract: Contract, options: RunOptions, fixture: Fixture): Promise<Outcome[]> {
  return [
    ...(await keySequences(contract, options, fixture)),
    ...(await headSequences(contract, options, fixture)),
    ...(await etagSequence(contract, options, fixture)),
    ...(await pageSequence(contract, options, fixture)),
  ];
}
