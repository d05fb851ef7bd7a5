// The HTTP beneath the contract, checked from outside (part of --negative): what RFC 9110, 9111,
// 9112 and 6750 say a server does with requests real clients, proxies and libraries send, which no
// schema-driven generator writes. Each check sends its request as bytes where fetch cannot (a
// target in absolute form, a corrupt gzip body) and judges the answer as the RFC says. A check
// that needs what the run was not given (--standard-key, --destination, --preset) is not sent.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { gzipSync } from 'node:zlib';
import type { Answer } from './check.js';
import type { Outcome, RunOptions } from './exchange.js';
import type { ConformanceRequest } from './generate/requests.js';
import { REQUEST_TIMEOUT_MS } from './send.js';

interface HttpCheck {
  operationId: string;
  /** The requirement, with the RFC section that states it. */
  label: string;
  keyKind: Outcome['keyKind'];
  /** The scheme the key is sent with: `Bearer` unless said. */
  authScheme?: string;
  /** What the run needs to send it. */
  needs?: 'standardKey' | 'destination' | 'preset';
  /** The request: method, target under the base URL, headers, and a body as bytes. */
  request(
    options: RunOptions,
    hash: string,
  ): { method: string; target: string; headers: Record<string, string>; body?: Buffer };
  /** The absolute-form target instead of the origin form. */
  absoluteForm?: boolean;
  /** What is wrong with the answer; nothing when it is as the RFC says. */
  judge(answer: Answer, options: RunOptions, hash: string): Promise<string[]> | string[];
}

function envelopeProblems(answer: Answer, statuses: number[]): string[] {
  if (!statuses.includes(answer.status)) return [`expected ${statuses.join(' or ')}, got ${answer.status}`];
  try {
    const body = JSON.parse(answer.text) as { error?: { code?: unknown } };
    return body.error?.code === answer.status ? [] : ['not the error envelope with its status as code'];
  } catch {
    return ['the body is not the JSON error envelope'];
  }
}

function headerProblem(answer: Answer, name: string, wanted: RegExp, rfc: string): string[] {
  const value = answer.headers.get(name);
  return value !== null && wanted.test(value)
    ? []
    : [`${name} is ${value === null ? 'missing' : JSON.stringify(value)}: ${rfc}`];
}

const json = { 'content-type': 'application/json' };
const UNKNOWN_DESTINATION = '00000000-0000-4000-8000-000000000000';
const destinationTarget = (options: RunOptions) =>
  `/observability/destinations/${options.destination ?? UNKNOWN_DESTINATION}`;
const NO_STORE = /(^|,)\s*no-store\s*(,|$)/i;

const statusProblems = (answer: Answer, status: number) =>
  answer.status === status ? [] : [`expected ${status}, got ${answer.status}`];
const noStoreProblems = (answer: Answer, what: string) =>
  headerProblem(answer, 'cache-control', NO_STORE, `${what} must not be stored by any cache`);
/** GET of the run's own key. */
const ownKey = (method: 'GET' | 'HEAD') => (_options: RunOptions, hash: string) => ({
  method,
  target: `/keys/${hash}`,
  headers: {},
});
/** A PATCH of the run's destination (or of one no workspace has) with these headers and body. */
const patchWith =
  (headers: Record<string, string>, body: Buffer = Buffer.from('{}')) =>
  (options: RunOptions) => ({
    method: 'PATCH',
    target: destinationTarget(options),
    headers: { ...json, ...headers },
    body,
  });

const CHECKS: HttpCheck[] = [
  {
    operationId: 'getKey',
    label: "a key's data is answered with Cache-Control: no-store (RFC 9111 §5.2.2.5; OWASP REST Security)",
    keyKind: 'management',
    request: ownKey('GET'),
    judge: (answer) => [...statusProblems(answer, 200), ...noStoreProblems(answer, "a key's data")],
  },
  {
    operationId: 'getKey',
    label: 'a request target in absolute form is served (RFC 9112 §3.2.2: a server MUST accept it)',
    keyKind: 'management',
    absoluteForm: true,
    request: ownKey('GET'),
    judge: (answer) => statusProblems(answer, 200),
  },
  {
    operationId: 'getKey',
    label: 'the auth scheme is case-insensitive: bEaReR (RFC 9110 §11.1)',
    keyKind: 'management',
    authScheme: 'bEaReR',
    request: ownKey('GET'),
    judge: (answer) => statusProblems(answer, 200),
  },
  {
    operationId: 'getKey',
    label: 'a 401 for a token that was sent says error="invalid_token" (RFC 6750 §3.1)',
    keyKind: 'none',
    request: (_options, hash) => ({
      method: 'GET',
      target: `/keys/${hash}`,
      headers: { authorization: `Bearer sk-or-v1-${'0'.repeat(64)}` },
    }),
    judge: (answer) => [
      ...envelopeProblems(answer, [401]),
      ...headerProblem(
        answer,
        'www-authenticate',
        /^Bearer\b.*error="invalid_token"/i,
        'RFC 6750 §3 asks for the challenge',
      ),
    ],
  },
  {
    operationId: 'getKey',
    label: 'a 403 for a key of the wrong kind says error="insufficient_scope" (RFC 6750 §3.1)',
    keyKind: 'standard',
    needs: 'standardKey',
    request: ownKey('GET'),
    judge: (answer) => [
      ...envelopeProblems(answer, [403]),
      ...headerProblem(
        answer,
        'www-authenticate',
        /^Bearer\b.*error="insufficient_scope"/i,
        'RFC 6750 §3.1 asks for the challenge',
      ),
    ],
  },
  {
    operationId: 'getKey',
    label: 'HEAD answers as GET would, without a body (RFC 9110 §9.3.2)',
    keyKind: 'management',
    request: ownKey('HEAD'),
    judge: (answer) => [...statusProblems(answer, 200), ...(answer.text === '' ? [] : ['a HEAD answer has a body'])],
  },
  {
    operationId: 'updateObservabilityDestination',
    label: "a corrupt gzip body is the client's error, a 4xx in the envelope, never a 5xx (RFC 9110 §15.5.1)",
    keyKind: 'management',
    request: (options) => {
      const body = gzipSync('{"sampling_rate": 0.5, "name": "a name long enough for a real stream"}');
      for (let i = 12; i < body.length - 8; i += 3) body[i] = (body[i] ?? 0) ^ 0xa5;
      return patchWith({ 'content-encoding': 'gzip' }, body)(options);
    },
    judge: (answer) => envelopeProblems(answer, [400]),
  },
  {
    operationId: 'updateObservabilityDestination',
    label: "a gzip body cut short is the client's error, a 4xx in the envelope (RFC 9110 §15.5.1)",
    keyKind: 'management',
    request: (options) => {
      const stream = gzipSync('{"sampling_rate": 0.5}');
      return patchWith({ 'content-encoding': 'gzip' }, stream.subarray(0, Math.floor(stream.length / 2)))(options);
    },
    judge: (answer) => envelopeProblems(answer, [400]),
  },
  {
    operationId: 'updateObservabilityDestination',
    label: 'a content coding the server does not know is 415 (RFC 9110 §8.4.1, §15.5.16)',
    keyKind: 'management',
    request: patchWith({ 'content-encoding': 'compress' }),
    judge: (answer) => envelopeProblems(answer, [415]),
  },
  {
    operationId: 'updateObservabilityDestination',
    label: "a destination's configuration is answered with Cache-Control: no-store (RFC 9111 §5.2.2.5)",
    keyKind: 'management',
    needs: 'destination',
    request: patchWith({}),
    judge: (answer) => [...statusProblems(answer, 200), ...noStoreProblems(answer, 'a configuration')],
  },
  {
    operationId: 'updateObservabilityDestination',
    label: 'If-Match compares strongly: a weak tag never matches, 412 (RFC 9110 §13.1.1)',
    keyKind: 'management',
    needs: 'destination',
    request: patchWith({ 'if-match': 'W/"r1", W/"r2", W/"r3"' }),
    judge: (answer) => envelopeProblems(answer, [412]),
  },
  {
    operationId: 'listPresetVersions',
    label: 'a page has a validator, and If-None-Match holding it is 304 with no body (RFC 9110 §13.1.2, §15.4.5)',
    keyKind: 'management',
    needs: 'preset',
    request: (options) => ({ method: 'GET', target: `/presets/${options.preset}/versions`, headers: {} }),
    async judge(answer, options) {
      const etag = answer.headers.get('etag');
      if (answer.status !== 200) return statusProblems(answer, 200);
      if (etag === null) return ['the page has no ETag'];
      const again = await sendBytes(options, {
        method: 'GET',
        target: `/presets/${options.preset}/versions`,
        headers: { authorization: `Bearer ${options.key}`, 'if-none-match': etag },
      });
      return [
        ...statusProblems(again, 304),
        ...(again.text === '' ? [] : ['a 304 has a body']),
        ...(again.headers.get('etag') === etag ? [] : ['a 304 carries the ETag a 200 would (RFC 9110 §15.4.5)']),
      ];
    },
  },
];

/** Sends the bytes of a request, in origin or absolute form; a connection error is thrown. */
function sendBytes(
  options: RunOptions,
  request: { method: string; target: string; headers: Record<string, string>; body?: Buffer },
  absoluteForm = false,
): Promise<Answer> {
  const base = new URL(options.baseUrl);
  const path = `${base.pathname.replace(/\/$/, '')}${request.target}`;
  const send = base.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      {
        host: base.hostname,
        port: base.port || (base.protocol === 'https:' ? 443 : 80),
        method: request.method,
        path: absoluteForm ? `${base.origin}${path}` : path,
        headers: { ...request.headers, ...(request.body && { 'content-length': String(request.body.length) }) },
        timeout: REQUEST_TIMEOUT_MS,
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(incoming.headers))
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          resolve({ status: incoming.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer in time')));
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

const AUTHORIZATION: Record<Outcome['keyKind'], (options: RunOptions) => string | undefined> = {
  management: (options) => options.key,
  standard: (options) => options.standardKey,
  none: () => undefined,
};

/** Every HTTP check the run can send, each sent once and judged; `hash` is the management key's own. */
export async function httpChecks(options: RunOptions, hash: string): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const check of CHECKS) {
    if (check.needs && options[check.needs] === undefined) continue;
    const built = check.request(options, hash);
    const key = AUTHORIZATION[check.keyKind](options);
    const scheme = check.authScheme ?? 'Bearer';
    const headers = { ...built.headers, ...(key !== undefined && { authorization: `${scheme} ${key}` }) };
    const request: ConformanceRequest = {
      operationId: check.operationId,
      method: built.method,
      target: built.target,
      headers: built.headers,
      ...(built.body && { body: built.body.toString('latin1') }),
      label: `HTTP: ${check.label}`,
      expect: { kind: 'accepted', statuses: [] },
    };
    try {
      const answer = await sendBytes(options, { ...built, headers }, check.absoluteForm);
      outcomes.push({
        index: -1,
        request,
        keyKind: check.keyKind,
        answer,
        problems: await check.judge(answer, options, hash),
      });
    } catch (err) {
      outcomes.push({ index: -1, request, keyKind: check.keyKind, problems: [`no answer: ${(err as Error).message}`] });
    }
  }
  return outcomes;
}
