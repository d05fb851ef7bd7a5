// One operation compared with its next version: operationId, tags, lifecycle, parameters, request
// body, responses and security.
import { compareContent, contentOf } from './content-compare.js';
import type { Findings } from './findings.js';
import {
  compareOperationLifecycle,
  compareOperationStability,
  compareParameterLifecycle,
  removalOfDeprecated,
  stabilityIncluded,
} from './lifecycle.js';
import { isPathLevel, type Parameter } from './operations.js';
import { compareResponses } from './response-compare.js';
import { compareSchemas } from './schema-compare.js';
import { compareSecurity, type Security } from './security-compare.js';

type Json = Record<string, unknown>;

function compareParameters(before: Json, after: Json, operation: string, findings: Findings): void {
  const key = (p: Parameter) => `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
  const paramsBefore = new Map(((before.parameters ?? []) as Parameter[]).map((p) => [key(p), p]));
  const paramsAfter = new Map(((after.parameters ?? []) as Parameter[]).map((p) => [key(p), p]));
  const label = (p: Parameter) => `${p.in} parameter ${p.name}`;
  for (const [id, parameter] of paramsAfter) {
    const previous = paramsBefore.get(id);
    if (!previous) {
      const requiredness = parameter.required ? 'required' : 'optional';
      const rule =
        parameter.in === 'path'
          ? 'new-request-path-parameter'
          : isPathLevel(parameter)
            ? `new-${requiredness}-request-default-parameter-to-existing-path`
            : `new-${requiredness}-request-parameter`;
      findings.add(
        rule,
        operation,
        label(parameter),
        `${parameter.required ? 'required' : 'optional'} parameter added`,
      );
      continue;
    }
    if (Boolean(previous.required) !== Boolean(parameter.required))
      findings.add(
        `request-parameter-became-${parameter.required ? 'required' : 'optional'}`,
        operation,
        label(parameter),
        parameter.required ? 'made required' : 'made optional',
      );
    for (const keyword of ['style', 'explode'] as const)
      if (previous[keyword] !== parameter[keyword])
        findings.add(
          `project-request-parameter-${keyword}-changed`,
          operation,
          label(parameter),
          `${keyword} ${String(previous[keyword] ?? 'default')} -> ${String(parameter[keyword] ?? 'default')}`,
        );
    compareParameterLifecycle(previous, parameter, operation, label(parameter), findings);
    compareSchemas(
      previous.schema,
      parameter.schema,
      { side: 'request', top: 'parameter', operation, in: parameter.in },
      label(parameter),
      findings,
    );
  }
  for (const [id, parameter] of paramsBefore) {
    if (paramsAfter.has(id)) continue;
    const rule = parameter.deprecated
      ? removalOfDeprecated(parameter, {
          withDeprecation: 'request-parameter-removed-with-deprecation',
          beforeSunset: 'request-parameter-removed-before-sunset',
          sunsetParse: 'request-parameter-sunset-parse',
        })
      : 'request-parameter-removed';
    if (rule) findings.add(rule, operation, label(parameter), 'parameter removed');
  }
}

function compareRequestBodies(before: Json, after: Json, operation: string, findings: Findings): void {
  const [bodyBefore, bodyAfter] = [before.requestBody as Json | undefined, after.requestBody as Json | undefined];
  const where = 'request body';
  if (!bodyBefore && bodyAfter) {
    findings.add(`request-body-added-${bodyAfter.required ? 'required' : 'optional'}`, operation, where, 'body added');
    return;
  }
  if (bodyBefore && !bodyAfter) {
    findings.add('request-body-removed', operation, where, 'body removed');
    return;
  }
  if (!bodyBefore || !bodyAfter) return;
  if (Boolean(bodyBefore.required) !== Boolean(bodyAfter.required))
    findings.add(
      `request-body-became-${bodyAfter.required ? 'required' : 'optional'}`,
      operation,
      where,
      bodyAfter.required ? 'made required' : 'made optional',
    );
  compareContent(contentOf(bodyBefore), contentOf(bodyAfter), 'request', operation, where, findings);
}

function compareTags(before: Json, after: Json, operation: string, findings: Findings): void {
  const [was, is] = [(before.tags ?? []) as string[], (after.tags ?? []) as string[]];
  for (const tag of was)
    if (!is.includes(tag)) findings.add('api-tag-removed', operation, 'tags', `tag ${tag} removed`);
  for (const tag of is) if (!was.includes(tag)) findings.add('api-tag-added', operation, 'tags', `tag ${tag} added`);
}

/** Compares one operation; true where it needed no credentials and now does. */
export function compareOperations(
  before: Json,
  after: Json,
  documents: [Json, Json],
  operation: string,
  findings: Findings,
): boolean {
  compareOperationStability(before, after, operation, findings);
  // An operation below oasdiff's stability threshold (draft, alpha) promises nothing else.
  if (!stabilityIncluded(after)) return false;
  if (before.operationId !== after.operationId)
    findings.add(
      before.operationId === undefined ? 'api-operation-id-added' : 'api-operation-id-removed',
      operation,
      'operationId',
      `${String(before.operationId ?? 'none')} -> ${String(after.operationId ?? 'none')}`,
    );
  compareTags(before, after, operation, findings);
  compareOperationLifecycle(before, after, operation, findings);
  compareParameters(before, after, operation, findings);
  compareRequestBodies(before, after, operation, findings);
  compareResponses(before, after, operation, findings);
  const effective = (op: Json, document: Json) => (op.security ?? document.security ?? []) as Security;
  const nowRequired = effective(before, documents[0]).length === 0 && effective(after, documents[1]).length > 0;
  compareSecurity(before, after, 'api-security', operation, findings, nowRequired);
  return nowRequired;
}
