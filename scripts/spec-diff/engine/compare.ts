// Compares two versions of an OpenAPI document, operation by operation: endpoints, parameters,
// request bodies, responses and their headers, security, lifecycle; then what belongs to the whole
// document (tags' use, webhooks, components, info.version). Each finding is a rule of rules.ts with
// its level. Schemas are compared after dereferencing, in the direction they flow (schema-compare.ts).
import { dereference } from '@apidevtools/json-schema-ref-parser';
import { HTTP_METHODS } from '../../../server/spec.js';
import { documentationChanges } from './documentation.js';
import { type Change, Findings } from './findings.js';
import { compareOperationLifecycle, compareParameterLifecycle, removalOfDeprecated } from './lifecycle.js';
import { compareSchemas, type Schema } from './schema-compare.js';
import { recordRef } from './schema-refs.js';
import { isNullable, typeChangeKind } from './schema-types.js';
import { compareSecurity, compareSecuritySchemes, type Security } from './security-compare.js';

export type { Change };
export { documentationChanges };

type Json = Record<string, unknown>;
type Parameter = Json & { name: string; in: string; required?: boolean; schema?: Schema };

// Parameters declared on a path item rather than an operation: oasdiff names their addition apart.
const pathLevel = new WeakSet<Parameter>();

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
      const requiredness = parameter.required ? 'required' : 'optional';
      const rule =
        parameter.in === 'path'
          ? 'new-request-path-parameter'
          : pathLevel.has(parameter)
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

function compareContent(
  before: Record<string, Json>,
  after: Record<string, Json>,
  side: 'request' | 'response',
  operation: string,
  where: string,
  findings: Findings,
): void {
  const prefix = side === 'request' ? 'request-body-media-type' : 'response-media-type';
  // Pairing is the content diff's, on both sides; only a response reports the new name.
  const renamed = renamedMediaTypes(Object.keys(before), Object.keys(after));
  for (const [mediaType, content] of Object.entries(before)) {
    const rename = renamed.get(mediaType);
    const next = after[rename?.to ?? mediaType];
    if (rename && side === 'response')
      findings.add(rename.id, operation, where, `media type ${mediaType} -> ${rename.to}`);
    if (!next) {
      findings.add(`${prefix}-removed`, operation, where, `media type ${mediaType} removed`);
      continue;
    }
    const [was, is] = [content.schema as Schema | undefined, next.schema as Schema | undefined];
    if (Boolean(was) !== Boolean(is))
      findings.add(
        `${side}-body-media-type-schema-${is ? 'added' : 'removed'}`,
        operation,
        `${where} ${mediaType}`,
        `schema ${is ? 'added' : 'removed'}`,
      );
    compareSchemas(was, is, { side, top: 'body', operation, mediaType }, `${where} ${mediaType}`, findings);
  }
  const renamedTo = new Set([...renamed.values()].map((r) => r.to));
  for (const mediaType of Object.keys(after))
    if (!(mediaType in before) && !renamedTo.has(mediaType))
      findings.add(`${prefix}-added`, operation, where, `media type ${mediaType} added`);
}

const essence = (mediaType: string) => (mediaType.split(';')[0] ?? '').trim().toLowerCase();

/** `application/problem+json` as type, subtype and structured suffix: application, problem, json. */
function nameParts(mediaType: string): { type: string; subtype: string; suffix: string } | undefined {
  const [type, rest, more] = essence(mediaType).split('/');
  if (!type || !rest || more !== undefined) return undefined;
  const [subtype = '', suffix = '', extra] = rest.split('+');
  return extra === undefined ? { type, subtype, suffix } : undefined;
}

/** A media type's parameters, written one way whatever the spacing and the case of their names. */
const parametersOf = (mediaType: string) =>
  mediaType
    .split(';')
    .slice(1)
    .map((p) => {
      const [name = '', ...value] = p.split('=');
      return `${name.trim().toLowerCase()}=${value.join('=').trim()}`;
    })
    .sort()
    .join(';');

/**
 * Whether `to` stays within `from` as oasdiff's content diff reads names (parameters aside): the same
 * type and subtype and suffix, or `from` a plain subtype that `to` carries as its suffix
 * (`application/json` holds `application/problem+json`, not the reverse).
 */
function nameContains(from: string, to: string): boolean {
  const [a, b] = [nameParts(from), nameParts(to)];
  if (!a || !b || a.type !== b.type) return false;
  if (a.suffix === '' && b.suffix !== '' && b.suffix === a.subtype) return true;
  return a.subtype === b.subtype && a.suffix === b.suffix;
}

/**
 * A media type that only changed its parameters, or gained or lost a structured suffix of its subtype
 * (`application/json`, `application/problem+json`), with nothing else in its place: oasdiff compares
 * it as the same content, under another name. A range (`application/*`) pairs with nothing, as
 * oasdiff's IsMediaTypeNameContained compares subtypes literally.
 */
function renamedMediaTypes(before: string[], after: string[]): Map<string, { to: string; id: string }> {
  const renamed = new Map<string, { to: string; id: string }>();
  const [gone, come] = [before.filter((m) => !after.includes(m)), after.filter((m) => !before.includes(m))];
  const related = (from: string, to: string) => nameContains(from, to) || nameContains(to, from);
  for (const from of gone) {
    const to = come.find((m) => related(from, m) && ![...renamed.values()].some((r) => r.to === m));
    if (!to) continue;
    // oasdiff's ResponseMediaTypeNameUpdatedCheck: parameters changed, else contained, else wider.
    const id =
      parametersOf(to) !== parametersOf(from)
        ? 'response-media-type-name-changed'
        : nameContains(from, to)
          ? 'response-media-type-name-specialized'
          : 'response-media-type-name-generalized';
    renamed.set(from, { to, id });
  }
  return renamed;
}

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

function compareResponses(before: Json, after: Json, operation: string, findings: Findings): void {
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

function compareTags(before: Json, after: Json, operation: string, findings: Findings): void {
  const [was, is] = [(before.tags ?? []) as string[], (after.tags ?? []) as string[]];
  for (const tag of was)
    if (!is.includes(tag)) findings.add('api-tag-removed', operation, 'tags', `tag ${tag} removed`);
  for (const tag of is) if (!was.includes(tag)) findings.add('api-tag-added', operation, 'tags', `tag ${tag} added`);
}

/** Compares one operation; true where it needed no credentials and now does. */
function compareOperations(
  before: Json,
  after: Json,
  documents: [Json, Json],
  operation: string,
  findings: Findings,
): boolean {
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
  compareSecurity(
    (before.security ?? []) as Security,
    (after.security ?? []) as Security,
    'api-security',
    operation,
    findings,
    nowRequired,
  );
  return nowRequired;
}

/**
 * Path-level parameters merged into each operation's own (the operation's win), as they apply.
 * `prefix` names where the path items are: the document's paths, or its webhooks (`webhook:`).
 */
function operationsOf(items: Record<string, Json>, prefix = ''): Map<string, { path: string; operation: Json }> {
  const operations = new Map<string, { path: string; operation: Json }>();
  for (const [name, item] of Object.entries(items)) {
    const path = `${prefix}${name}`;
    const shared = (item.parameters ?? []) as Parameter[];
    for (const parameter of shared) pathLevel.add(parameter);
    for (const method of HTTP_METHODS.filter((m) => m in item)) {
      const operation = item[method] as Json;
      const own = (operation.parameters ?? []) as Parameter[];
      const parameters = [...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own];
      operations.set(`${method.toUpperCase()} ${path}`, { path, operation: { ...operation, parameters } });
    }
  }
  return operations;
}

/**
 * Every operation of a document: its paths', then those of the webhooks that both versions have.
 * As oasdiff does, a webhook kept from one version to the next is compared as a path
 * (`webhook:<name>`), operation by operation; one added or removed whole is a rule of its own.
 */
function allOperations(document: Json, keptWebhooks: Set<string>): Map<string, { path: string; operation: Json }> {
  const webhooks = Object.entries((document.webhooks ?? {}) as Record<string, Json>).filter(([name]) =>
    keptWebhooks.has(name),
  );
  return new Map([
    ...operationsOf((document.paths ?? {}) as Record<string, Json>),
    ...operationsOf(Object.fromEntries(webhooks), 'webhook:'),
  ]);
}

function compareRemoved(operation: string, was: Json, pathKept: boolean, findings: Findings): void {
  const prefix = pathKept ? 'api' : 'api-path';
  const id = was.deprecated
    ? removalOfDeprecated(was, {
        withDeprecation: `${prefix}-removed-with-deprecation`,
        beforeSunset: `${prefix}-removed-before-sunset`,
        sunsetParse: 'api-path-sunset-parse',
      })
    : `${prefix}-removed-without-deprecation`;
  if (id) findings.add(id, operation, operation, pathKept ? 'operation removed' : 'path removed');
}

/** What belongs to the whole document: global security, security schemes, schemas, webhooks. */
function compareDocument(before: Json, after: Json, needsCredentialsNow: boolean, findings: Findings): void {
  compareSecurity(
    (before.security ?? []) as Security,
    (after.security ?? []) as Security,
    'api-global-security',
    undefined,
    findings,
    needsCredentialsNow,
  );
  compareSecuritySchemes(before, after, findings);
  const schemas = (document: Json) => ((document.components as Json | undefined)?.schemas ?? {}) as Json;
  for (const name of Object.keys(schemas(before)))
    if (!(name in schemas(after)))
      findings.add('api-schema-removed', undefined, `components schemas ${name}`, 'schema removed');
  const [hooksBefore, hooksAfter] = [(before.webhooks ?? {}) as Json, (after.webhooks ?? {}) as Json];
  for (const name of Object.keys(hooksAfter))
    if (!(name in hooksBefore)) findings.add('webhook-added', undefined, `webhook ${name}`, 'webhook added');
  for (const name of Object.keys(hooksBefore))
    if (!(name in hooksAfter)) findings.add('webhook-removed', undefined, `webhook ${name}`, 'webhook removed');
}

const semver = (version: unknown) =>
  /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(String(version))?.slice(1, 4).map(Number);

/** A breaking change released without a new major version, as oasdiff's versioning policy says. */
function compareVersions(before: Json, after: Json, findings: Findings): void {
  if (!findings.changes.some((c) => c.level === 'error')) return;
  const [from, to] = [(before.info as Json | undefined)?.version, (after.info as Json | undefined)?.version];
  const [was, is] = [semver(from), semver(to)];
  if (!was || !is) return;
  const order =
    was[0] !== is[0]
      ? (is[0] ?? 0) - (was[0] ?? 0)
      : was[1] !== is[1]
        ? (is[1] ?? 0) - (was[1] ?? 0)
        : (is[2] ?? 0) - (was[2] ?? 0);
  const where = 'info.version';
  if (from === to)
    findings.add('api-version-not-bumped', undefined, where, `breaking changes, version still ${String(to)}`);
  else if (order < 0) findings.add('api-version-decreased', undefined, where, `${String(from)} -> ${String(to)}`);
  else if ((is[0] ?? 0) <= (was[0] ?? 0))
    findings.add(
      'api-major-version-not-bumped',
      undefined,
      where,
      `breaking changes in ${String(from)} -> ${String(to)}`,
    );
}

export async function compareSpecs(beforeDocument: Json, afterDocument: Json): Promise<Change[]> {
  const [before, after] = (await Promise.all([
    dereference(structuredClone(beforeDocument), { dereference: { onDereference: recordRef } }),
    dereference(structuredClone(afterDocument), { dereference: { onDereference: recordRef } }),
  ])) as [Json, Json];
  const findings = new Findings();
  let needsCredentialsNow = false;
  const hooksAfter = (after.webhooks ?? {}) as Json;
  const keptWebhooks = new Set(Object.keys((before.webhooks ?? {}) as Json).filter((name) => name in hooksAfter));
  const [operationsBefore, operationsAfter] = [allOperations(before, keptWebhooks), allOperations(after, keptWebhooks)];
  const pathsAfter = new Set([
    ...Object.keys((after.paths ?? {}) as Json),
    ...[...keptWebhooks].map((name) => `webhook:${name}`),
  ]);
  for (const [operation, { path, operation: was }] of operationsBefore) {
    const is = operationsAfter.get(operation)?.operation;
    if (is)
      needsCredentialsNow = compareOperations(was, is, [before, after], operation, findings) || needsCredentialsNow;
    else compareRemoved(operation, was, pathsAfter.has(path), findings);
  }
  for (const operation of operationsAfter.keys())
    if (!operationsBefore.has(operation)) findings.add('endpoint-added', operation, operation, 'operation added');
  compareDocument(before, after, needsCredentialsNow, findings);
  compareVersions(before, after, findings);
  return findings.changes;
}

/** Every change between two documents: the contract's, then the documentation's. */
export async function specChanges(before: Json, after: Json): Promise<Change[]> {
  return [...(await compareSpecs(before, after)), ...documentationChanges(before, after)];
}

export function majorVersion(document: Json): number {
  return Number(String((document.info as Json | undefined)?.version ?? '0').split('.')[0]);
}
