// A response's statuses compared: removed and added by class, and for each kept one its headers
// and its content.
import { compareContent, contentOf } from './content-compare.js';
import type { Findings } from './findings.js';
import type { Schema } from './schema-compare.js';
import { isNullable, typeChangeKind } from './schema-types.js';

type Json = Record<string, unknown>;

const isSuccess = (status: string) => /^2/.test(status);

/** A response's headers: added, removed, made optional, of another type, nullable or not. */
function compareHeaders(before: Json, after: Json, operation: string, where: string, findings: Findings): void {
  const byName = (response: Json) =>
    new Map(
      Object.entries((response.headers ?? {}) as Record<string, Json>).map(([n, h]) => [
        n.toLowerCase(),
        [n, h] as const,
      ]),
    );
  const [headersBefore, headersAfter] = [byName(before), byName(after)];
  for (const [key, [name, header]] of headersBefore) {
    const at = `${where} header ${name}`;
    const next = headersAfter.get(key)?.[1];
    if (!next) {
      findings.add(
        header.required ? 'required-response-header-removed' : 'optional-response-header-removed',
        operation,
        at,
        'header removed',
      );
      continue;
    }
    if (header.required && !next.required)
      findings.add('response-header-became-optional', operation, at, 'made optional');
    const [was, is] = [(header.schema ?? {}) as Schema, (next.schema ?? {}) as Schema];
    const kind = typeChangeKind(was, is, 'response', false);
    if (kind?.startsWith('type-'))
      findings.add(`response-header-${kind}`, operation, at, `type ${String(was.type)} -> ${String(is.type)}`);
    if (isNullable(was) !== isNullable(is))
      findings.add(
        `response-header-became-${isNullable(is) ? '' : 'not-'}nullable`,
        operation,
        at,
        'nullability changed',
      );
  }
  for (const [key, [name]] of headersAfter)
    if (!headersBefore.has(key))
      findings.add('response-header-added', operation, `${where} header ${name}`, 'header added');
}

export function compareResponses(before: Json, after: Json, operation: string, findings: Findings): void {
  const [responsesBefore, responsesAfter] = [
    (before.responses ?? {}) as Record<string, Json>,
    (after.responses ?? {}) as Record<string, Json>,
  ];
  const kind = (status: string) => (isSuccess(status) ? 'success' : 'non-success');
  for (const [status, response] of Object.entries(responsesBefore)) {
    const next = responsesAfter[status];
    const where = `response ${status}`;
    if (!next) {
      findings.add(`response-${kind(status)}-status-removed`, operation, where, 'status removed');
      continue;
    }
    compareHeaders(response, next, operation, where, findings);
    compareContent(contentOf(response), contentOf(next), 'response', operation, where, findings);
  }
  for (const status of Object.keys(responsesAfter))
    if (!(status in responsesBefore))
      findings.add(`response-${kind(status)}-status-added`, operation, `response ${status}`, 'status added');
}
