// Compares two versions of an OpenAPI document, operation by operation: endpoints, parameters,
// request bodies, responses and their headers, security, lifecycle; then what belongs to the whole
// document (tags' use, webhooks, components, info.version). Each finding is a rule of rules.ts with
// its level. Schemas are compared after dereferencing, in the direction they flow (schema-compare.ts).
import { dereference } from '@apidevtools/json-schema-ref-parser';
import { documentationChanges } from './documentation.js';
import { type Change, Findings } from './findings.js';
import { removalOfDeprecated, stabilityIncluded } from './lifecycle.js';
import { compareOperations } from './operation-compare.js';
import { allOperations, pairOperations, pathTemplate } from './operations.js';
import { recordRef } from './schema-refs.js';
import { compareSecurity, compareSecuritySchemes } from './security-compare.js';

export type { Change };
export { documentationChanges };

type Json = Record<string, unknown>;

function compareRemoved(operation: string, was: Json, pathKept: boolean, findings: Findings): void {
  if (!stabilityIncluded(was)) return;
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
  compareSecurity(before, after, 'api-global-security', undefined, findings, needsCredentialsNow);
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
  const pathsAfter = new Set(
    [...Object.keys((after.paths ?? {}) as Json), ...[...keptWebhooks].map((name) => `webhook:${name}`)].map(
      pathTemplate,
    ),
  );
  const pairs = pairOperations(operationsBefore, operationsAfter);
  for (const [operation, { path, operation: was }] of operationsBefore) {
    const is = pairs.get(operation)?.operation;
    if (is)
      needsCredentialsNow = compareOperations(was, is, [before, after], operation, findings) || needsCredentialsNow;
    else compareRemoved(operation, was, pathsAfter.has(pathTemplate(path)), findings);
  }
  const paired = new Set([...pairs.values()].map((pair) => pair.key));
  for (const operation of operationsAfter.keys())
    if (!paired.has(operation)) findings.add('endpoint-added', operation, operation, 'operation added');
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
