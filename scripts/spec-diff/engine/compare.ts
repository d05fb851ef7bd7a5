// Compares two versions of an OpenAPI document, operation by operation: endpoints, parameters,
// request bodies, responses and security, each finding a rule of spec-diff-rules.ts with its
// level. Schemas are compared after dereferencing, in the direction they flow (schema-compare.ts).
import { dereference } from '@apidevtools/json-schema-ref-parser';
import { HTTP_METHODS } from '../../../server/spec.js';
import { type Change, compareSchemas, Findings, type Schema } from './schema-compare.js';

export type { Change };

type Json = Record<string, unknown>;
type Parameter = { name: string; in: string; required?: boolean; schema?: Schema };
type Security = Record<string, string[]>[];

const contentOf = (container: Json | undefined) => (container?.content ?? {}) as Record<string, Json>;
const isSuccess = (status: string) => /^2/.test(status);

function compareParameters(before: Json, after: Json, operation: string, findings: Findings): void {
  const key = (p: Parameter) => `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
  const paramsBefore = new Map(((before.parameters ?? []) as Parameter[]).map((p) => [key(p), p]));
  const paramsAfter = new Map(((after.parameters ?? []) as Parameter[]).map((p) => [key(p), p]));
  const label = (p: Parameter) => `${p.in} parameter ${p.name}`;
  for (const [id, parameter] of paramsAfter) {
    const previous = paramsBefore.get(id);
    if (!previous) {
      const rule =
        parameter.in === 'path'
          ? 'new-request-path-parameter'
          : parameter.required
            ? 'new-required-request-parameter'
            : 'new-optional-request-parameter';
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
    compareSchemas(
      previous.schema,
      parameter.schema,
      { side: 'request', top: 'parameter', operation },
      label(parameter),
      findings,
    );
  }
  for (const [id, parameter] of paramsBefore)
    if (!paramsAfter.has(id))
      findings.add('request-parameter-removed', operation, label(parameter), 'parameter removed (now refused)');
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

function compareContent(
  before: Record<string, Json>,
  after: Record<string, Json>,
  side: 'request' | 'response',
  operation: string,
  where: string,
  findings: Findings,
): void {
  const prefix = side === 'request' ? 'request-body-media-type' : 'response-media-type';
  for (const [mediaType, content] of Object.entries(before)) {
    const next = after[mediaType];
    if (!next) findings.add(`${prefix}-removed`, operation, where, `media type ${mediaType} removed`);
    else
      compareSchemas(
        content.schema as Schema | undefined,
        next.schema as Schema | undefined,
        { side, top: 'body', operation },
        `${where} ${mediaType}`,
        findings,
      );
  }
  for (const mediaType of Object.keys(after))
    if (!(mediaType in before)) findings.add(`${prefix}-added`, operation, where, `media type ${mediaType} added`);
}

function compareResponses(before: Json, after: Json, operation: string, findings: Findings): void {
  const [responsesBefore, responsesAfter] = [
    (before.responses ?? {}) as Record<string, Json>,
    (after.responses ?? {}) as Record<string, Json>,
  ];
  const kind = (status: string) => (isSuccess(status) ? 'success' : 'non-success');
  for (const [status, response] of Object.entries(responsesBefore)) {
    const next = responsesAfter[status];
    const where = `response ${status}`;
    if (!next) findings.add(`response-${kind(status)}-status-removed`, operation, where, 'status removed');
    else compareContent(contentOf(response), contentOf(next), 'response', operation, where, findings);
  }
  for (const status of Object.keys(responsesAfter))
    if (!(status in responsesBefore))
      findings.add(`response-${kind(status)}-status-added`, operation, `response ${status}`, 'status added');
}

const describeRequirement = (requirement: Record<string, string[]>) =>
  Object.entries(requirement)
    .map(([scheme, roles]) => `${scheme}: [${roles.join(', ')}]`)
    .join(' and ');
const sameSchemes = (a: Record<string, string[]>, b: Record<string, string[]>) =>
  Object.keys(a).sort().join() === Object.keys(b).sort().join();

/** Each alternative requirement (scheme -> roles) of the operation, as before and after. */
function compareSecurity(before: Security, after: Security, operation: string, findings: Findings): void {
  const where = 'security';
  if (before.length === 0 && after.length > 0) {
    findings.add(
      'api-security-now-required',
      operation,
      where,
      `now requires ${after.map(describeRequirement).join(' or ')}`,
    );
    return;
  }
  const same = (a: Record<string, string[]>, b: Record<string, string[]>) =>
    sameSchemes(a, b) &&
    Object.keys(a).every((s) => [...(a[s] ?? [])].sort().join() === [...(b[s] ?? [])].sort().join());
  for (const was of before) {
    if (after.some((is) => same(was, is))) continue;
    // The same schemes with other roles, unless that requirement was already an alternative.
    const counterpart = after.find((is) => sameSchemes(was, is) && !before.some((other) => same(other, is)));
    if (!counterpart) {
      findings.add('api-security-removed', operation, where, `alternative ${describeRequirement(was)} removed`);
      continue;
    }
    const rolesAdded = Object.keys(counterpart).some((s) => (counterpart[s] ?? []).some((r) => !was[s]?.includes(r)));
    findings.add(
      rolesAdded ? 'api-security-scope-added' : 'api-security-scope-removed',
      operation,
      where,
      `${describeRequirement(was)} -> ${describeRequirement(counterpart)}`,
    );
  }
  for (const is of after)
    if (!before.some((was) => same(was, is) || sameSchemes(was, is)))
      findings.add('api-security-added', operation, where, `alternative ${describeRequirement(is)} added`);
}

function compareOperations(before: Json, after: Json, documents: [Json, Json], operation: string, findings: Findings) {
  if (before.operationId !== undefined && before.operationId !== after.operationId)
    findings.add(
      'api-operation-id-removed',
      operation,
      'operationId',
      `${String(before.operationId)} -> ${String(after.operationId ?? 'none')}`,
    );
  compareParameters(before, after, operation, findings);
  compareRequestBodies(before, after, operation, findings);
  compareResponses(before, after, operation, findings);
  const securityOf = (op: Json, document: Json) => (op.security ?? document.security ?? []) as Security;
  compareSecurity(securityOf(before, documents[0]), securityOf(after, documents[1]), operation, findings);
}

/** Path-level parameters merged into each operation's own (the operation's win), as they apply. */
function operationsOf(document: Json): Map<string, { path: string; operation: Json }> {
  const operations = new Map<string, { path: string; operation: Json }>();
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    const shared = (item.parameters ?? []) as Parameter[];
    for (const method of HTTP_METHODS.filter((m) => m in item)) {
      const operation = item[method] as Json;
      const own = (operation.parameters ?? []) as Parameter[];
      const parameters = [...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own];
      operations.set(`${method.toUpperCase()} ${path}`, { path, operation: { ...operation, parameters } });
    }
  }
  return operations;
}

export async function compareSpecs(beforeDocument: Json, afterDocument: Json): Promise<Change[]> {
  const [before, after] = (await Promise.all([
    dereference(structuredClone(beforeDocument)),
    dereference(structuredClone(afterDocument)),
  ])) as [Json, Json];
  const findings = new Findings();
  const [operationsBefore, operationsAfter] = [operationsOf(before), operationsOf(after)];
  const pathsAfter = (after.paths ?? {}) as Json;
  for (const [operation, { path, operation: was }] of operationsBefore) {
    const is = operationsAfter.get(operation)?.operation;
    if (is) compareOperations(was, is, [before, after], operation, findings);
    else {
      const deprecated = was.deprecated === true ? 'with' : 'without';
      if (path in pathsAfter)
        findings.add(`api-removed-${deprecated}-deprecation`, operation, operation, 'operation removed');
      else findings.add(`api-path-removed-${deprecated}-deprecation`, operation, operation, 'path removed');
    }
  }
  for (const operation of operationsAfter.keys())
    if (!operationsBefore.has(operation)) findings.add('endpoint-added', operation, operation, 'operation added');
  return findings.changes;
}

// What only documents the contract: readers of the docs see it, generated code and clients do not.
const DOCUMENTATION_KEYS = new Set(['description', 'summary', 'title', 'example', 'examples', 'externalDocs']);
// Objects whose keys are names (a property called `description` is a property, not documentation).
const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'paths',
  'schemas',
  'responses',
  'parameters',
  'headers',
  'securitySchemes',
  'requestBodies',
  'links',
  'callbacks',
  'content',
  'variables',
  'mapping',
]);
const isDocumentation = (key: string, parent: string | undefined) =>
  !NAME_MAPS.has(parent ?? '') && (DOCUMENTATION_KEYS.has(key) || key.startsWith('x-'));

/**
 * Every documentation-only change between two documents, compared as written ($refs not followed,
 * so that a shared schema's description is listed once): listed so that an edit of the docs is
 * never reported as no change at all.
 */
export function documentationChanges(before: unknown, after: unknown, where: string[] = []): Change[] {
  const findings = new Findings();
  collectDocumentationChanges(before, after, where, findings);
  return findings.changes;
}

/** `GET /keys/{hash}` for a place inside an operation (paths, path, method, ...). */
function operationOf(path: string[]): string | undefined {
  const [root, route, method] = path;
  return root === 'paths' && route && method && (HTTP_METHODS as readonly string[]).includes(method)
    ? `${method.toUpperCase()} ${route}`
    : undefined;
}

function collectDocumentationChanges(before: unknown, after: unknown, where: string[], findings: Findings): void {
  if (typeof before !== 'object' || before === null || typeof after !== 'object' || after === null) return;
  const [a, b] = [before as Record<string, unknown>, after as Record<string, unknown>];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const path = [...where, key];
    if (!Array.isArray(before) && isDocumentation(key, where.at(-1))) {
      if (JSON.stringify(a[key]) === JSON.stringify(b[key])) continue;
      const what = !(key in a) ? 'added' : !(key in b) ? 'removed' : 'changed';
      findings.add('documentation-changed', operationOf(path), path.join(' '), `documentation ${what}: ${key}`);
    } else if (key in a && key in b) collectDocumentationChanges(a[key], b[key], path, findings);
  }
}

/** Every change between two documents: the contract's, then the documentation's. */
export async function specChanges(before: Json, after: Json): Promise<Change[]> {
  return [...(await compareSpecs(before, after)), ...documentationChanges(before, after)];
}

export function majorVersion(document: Json): number {
  return Number(String((document.info as Json | undefined)?.version ?? '0').split('.')[0]);
}
