// Whether an answer keeps the contract: its status is one the operation documents (and the one the
// request called for), its body and headers match their schemas, a non-2xx answer is the error
// envelope with its status as its code, and a 400 names the field that was broken.
import type { Contract, ContractOperation } from './contract.js';
import type { Expectation } from './generate/requests.js';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

function schemaProblems(errors: { instancePath: string; message?: string }[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
    .join('; ');
}

function parsed(text: string): { value?: unknown; error?: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

function fieldsNamed(body: unknown): string[] {
  const errors = (body as { error?: { metadata?: { errors?: { path?: unknown }[] } | null } })?.error?.metadata?.errors;
  return Array.isArray(errors) ? errors.map((e) => String(e.path).toLowerCase()) : [];
}

function expectationProblems(expect: Expectation, answer: Answer, body: unknown): string[] {
  const { status } = answer;
  if (expect.kind === 'accepted' && !expect.statuses.includes(status))
    return [`expected ${expect.statuses.join(' or ')}, got ${status}`];
  if (expect.kind === 'boundary' && status === 400) return [`a value exactly on a bound was refused: ${summary(body)}`];
  if (expect.kind === 'refused') {
    if (status === 404 && expect.orNotFound) return [];
    if (status !== 400)
      return [`expected 400 naming ${expect.field}${expect.orNotFound ? ' or 404' : ''}, got ${status}`];
    const named = fieldsNamed(body);
    if (!named.includes(expect.field.toLowerCase()))
      return [`the 400 does not name ${expect.field} (it names ${named.join(', ') || 'no field'})`];
  }
  return [];
}

function summary(body: unknown): string {
  const message = (body as { error?: { message?: unknown } })?.error?.message;
  return typeof message === 'string' ? message.slice(0, 200) : (JSON.stringify(body)?.slice(0, 200) ?? '(no body)');
}

/** A status the deployment answers and the operation does not document: what openapi.yaml lacks for it. */
function undocumentedStatus(contract: Contract, operation: ContractOperation, status: number): string {
  const documented = `documented: ${[...operation.responses.keys()].join(', ')}`;
  const example = contract.documentedAs.get(status);
  const lack = example
    ? `: openapi.yaml lacks its response '${status}' (${example.operationId} has '${status}': {$ref: '${example.ref}'})`
    : `: openapi.yaml lacks its response '${status}'`;
  return `status ${status} is not documented for ${operation.operationId} (${documented})${lack}`;
}

/** What an answer breaks of the contract; none when it keeps it. A HEAD's answer has no body to check. */
export function answerProblems(
  contract: Contract,
  operation: ContractOperation,
  expect: Expectation,
  answer: Answer,
  head = false,
): string[] {
  const problems: string[] = [];
  const documented = operation.responses.get(answer.status);
  if (answer.status >= 500) problems.push(`a server error (${answer.status}): ${answer.text.slice(0, 200)}`);
  if (!documented) problems.push(undocumentedStatus(contract, operation, answer.status));
  let body: unknown;
  if (documented?.body) {
    const contentType = answer.headers.get('content-type') ?? '';
    if (!contentType.startsWith(documented.mediaType ?? '')) {
      problems.push(`Content-Type is ${contentType || 'missing'}, documented: ${documented.mediaType}`);
    }
    const { value, error } = head ? {} : parsed(answer.text);
    if (error) problems.push(`the body is not JSON: ${error}`);
    else if (!head && !documented.body(value))
      problems.push(`the body does not match its schema: ${schemaProblems(documented.body.errors)}`);
    body = value;
  }
  for (const header of documented?.headers ?? []) {
    const value = answer.headers.get(header.name);
    if (value === null) continue;
    if (!header.validate(header.numeric ? Number(value) : value))
      problems.push(`header ${header.name}: ${JSON.stringify(value)} ${schemaProblems(header.validate.errors)}`);
  }
  if (answer.status >= 400 && !head) {
    if (body === undefined) body = parsed(answer.text).value;
    if (!contract.errorResponse(body))
      problems.push(`not the error envelope: ${schemaProblems(contract.errorResponse.errors)}`);
    else if ((body as { error: { code: number } }).error.code !== answer.status)
      problems.push(
        `error.code ${(body as { error: { code: number } }).error.code} is not the status ${answer.status}`,
      );
  }
  problems.push(...expectationProblems(expect, answer, body));
  return problems;
}
