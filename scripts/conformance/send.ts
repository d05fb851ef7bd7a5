// Sending a generated request to a deployment, and the same request as a curl line to paste.
import type { Answer } from './check.js';
import type { ConformanceRequest } from './generate/requests.js';

/** The variables a printed curl line reads the keys from: a key is never printed. */
export const KEY_VARIABLE = 'CONFORMANCE_KEY';
export const STANDARD_KEY_VARIABLE = 'CONFORMANCE_STANDARD_KEY';

export const REQUEST_TIMEOUT_MS = 30_000;

/** Sends the request with `key` as its bearer key (none for `undefined`); a connection error is thrown. */
export async function send(baseUrl: string, request: ConformanceRequest, key: string | undefined): Promise<Answer> {
  const response = await fetch(`${baseUrl}${request.target}`, {
    method: request.method,
    headers: { ...request.headers, ...(key !== undefined && { authorization: `Bearer ${key}` }) },
    ...(request.body !== undefined && { body: request.body }),
    redirect: 'manual',
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** The request as a curl command line, its key read from the variable named (none: sent without a key). */
export function curlLine(baseUrl: string, request: ConformanceRequest, keyVariable?: string): string {
  const method = request.method === 'HEAD' ? ['-I'] : ['-X', request.method];
  const parts = ['curl', '-sS', '-i', ...method, quoted(`${baseUrl}${request.target}`)];
  if (keyVariable) parts.push('-H', `"Authorization: Bearer $${keyVariable}"`);
  // curl drops a header given as `name:` with no value; `name;` sends it empty.
  for (const [name, value] of Object.entries(request.headers))
    parts.push('-H', quoted(value === '' ? `${name};` : `${name}: ${value}`));
  if (request.body !== undefined) parts.push('--data-binary', quoted(request.body));
  // fetch sends `Content-Length: 0` with a PATCH that has no body; so does curl with an empty one.
  else if (request.method !== 'GET' && request.method !== 'HEAD') parts.push('--data-binary', "''");
  return parts.join(' ');
}
