// Compares two versions of an OpenAPI document and classes every change as breaking for
// existing clients or not. Schemas are compared after dereferencing, in the direction they flow:
// what a client sends (requests: tightening breaks) and what it receives (responses: removing,
// loosening a promise or adding null breaks).
import { dereference } from '@apidevtools/json-schema-ref-parser';
import { HTTP_METHODS } from '../server/spec.js';
import { type Change, compareSchemas, type Schema } from './schema-compare.js';

export type { Change };

type Json = Record<string, unknown>;

function jsonSchemaOf(container: Json | undefined): Schema | undefined {
  return ((container?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema as
    | Schema
    | undefined;
}

function securityOf(operation: Json, document: Json): Record<string, string[]>[] {
  return (operation.security ?? document.security ?? []) as Record<string, string[]>[];
}

function compareOperations(
  before: Json,
  after: Json,
  docBefore: Json,
  docAfter: Json,
  where: string,
  changes: Change[],
): void {
  type Parameter = { name: string; in: string; required?: boolean; schema?: Schema };
  const key = (p: Parameter) => `${p.in}:${p.name.toLowerCase()}`;
  const paramsBefore = new Map(((before.parameters ?? []) as Parameter[]).map((p) => [key(p), p]));
  const paramsAfter = new Map(((after.parameters ?? []) as Parameter[]).map((p) => [key(p), p]));
  for (const [id, parameter] of paramsAfter) {
    const previous = paramsBefore.get(id);
    const label = `${where} ${parameter.in} parameter ${parameter.name}`;
    if (!previous)
      changes.push({
        breaking: parameter.required === true,
        where: label,
        what: parameter.required ? 'new required parameter' : 'new optional parameter',
      });
    else {
      if (!previous.required && parameter.required)
        changes.push({ breaking: true, where: label, what: 'made required' });
      compareSchemas(previous.schema, parameter.schema, label, 'request', changes);
    }
  }
  for (const [id, parameter] of paramsBefore) {
    if (!paramsAfter.has(id))
      changes.push({
        breaking: false,
        where: `${where} ${parameter.in} parameter ${parameter.name}`,
        what: 'parameter removed (now ignored or refused)',
      });
  }

  const [bodyBefore, bodyAfter] = [before.requestBody as Json | undefined, after.requestBody as Json | undefined];
  if (!bodyBefore?.required && bodyAfter?.required)
    changes.push({ breaking: true, where: `${where} request body`, what: 'made required' });
  compareSchemas(jsonSchemaOf(bodyBefore), jsonSchemaOf(bodyAfter), `${where} request body`, 'request', changes);

  const [responsesBefore, responsesAfter] = [
    (before.responses ?? {}) as Record<string, Json>,
    (after.responses ?? {}) as Record<string, Json>,
  ];
  for (const status of Object.keys(responsesBefore)) {
    if (!(status in responsesAfter))
      changes.push({ breaking: true, where: `${where} response ${status}`, what: 'response status removed' });
    else
      compareSchemas(
        jsonSchemaOf(responsesBefore[status]),
        jsonSchemaOf(responsesAfter[status]),
        `${where} response ${status} body`,
        'response',
        changes,
      );
  }
  for (const status of Object.keys(responsesAfter)) {
    if (!(status in responsesBefore))
      changes.push({ breaking: false, where: `${where} response ${status}`, what: 'response status added' });
  }

  const [securityBefore, securityAfter] = [securityOf(before, docBefore), securityOf(after, docAfter)];
  if (securityBefore.length === 0 && securityAfter.length > 0)
    changes.push({ breaking: true, where, what: 'security added' });
  else if (JSON.stringify(securityBefore) !== JSON.stringify(securityAfter)) {
    // A caller who met one requirement before must still meet one after.
    const stillMet =
      securityAfter.length === 0 || securityBefore.every((was) => securityAfter.some((is) => implies(was, is)));
    changes.push({
      breaking: !stillMet,
      where,
      what: `security requirements changed from ${describeSecurity(securityBefore)} to ${describeSecurity(securityAfter)}`,
    });
  }
}

/** Whether meeting requirement `met` (scheme -> roles) meets `needed`: its schemes, with no role more. */
function implies(met: Record<string, string[]>, needed: Record<string, string[]>): boolean {
  return Object.entries(needed).every(
    ([scheme, roles]) => met[scheme] !== undefined && roles.every((role) => met[scheme]?.includes(role)),
  );
}

function describeSecurity(requirements: Record<string, string[]>[]): string {
  if (requirements.length === 0) return 'none';
  return requirements
    .map((r) =>
      Object.entries(r)
        .map(([scheme, roles]) => `${scheme}: [${roles.join(', ')}]`)
        .join(' and '),
    )
    .join(' or ');
}

export async function compareSpecs(beforeDocument: Json, afterDocument: Json): Promise<Change[]> {
  const [before, after] = (await Promise.all([
    dereference(structuredClone(beforeDocument)),
    dereference(structuredClone(afterDocument)),
  ])) as Json[];
  const changes: Change[] = [];
  const [pathsBefore, pathsAfter] = [
    (before?.paths ?? {}) as Record<string, Json>,
    (after?.paths ?? {}) as Record<string, Json>,
  ];
  for (const [path, itemBefore] of Object.entries(pathsBefore)) {
    const itemAfter = pathsAfter[path];
    for (const method of HTTP_METHODS.filter((m) => m in itemBefore)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (!itemAfter) changes.push({ breaking: true, where, what: 'path removed' });
      else if (!(method in itemAfter)) changes.push({ breaking: true, where, what: 'method removed' });
      else
        compareOperations(
          itemBefore[method] as Json,
          itemAfter[method] as Json,
          before as Json,
          after as Json,
          where,
          changes,
        );
    }
  }
  for (const [path, itemAfter] of Object.entries(pathsAfter)) {
    for (const method of HTTP_METHODS.filter(
      (m) => m in itemAfter && !(pathsBefore[path] && m in (pathsBefore[path] as Json)),
    )) {
      changes.push({ breaking: false, where: `${method.toUpperCase()} ${path}`, what: 'operation added' });
    }
  }
  return changes;
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
 * so that a shared schema's description is listed once): compatible, listed so that an edit of the
 * docs is never reported as no change at all.
 */
export function documentationChanges(before: unknown, after: unknown, where: string[] = []): Change[] {
  if (typeof before !== 'object' || before === null || typeof after !== 'object' || after === null) return [];
  const changes: Change[] = [];
  const [a, b] = [before as Record<string, unknown>, after as Record<string, unknown>];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const path = [...where, key];
    if (!Array.isArray(before) && isDocumentation(key, where.at(-1))) {
      if (JSON.stringify(a[key]) === JSON.stringify(b[key])) continue;
      const what = !(key in a) ? 'added' : !(key in b) ? 'removed' : 'changed';
      changes.push({ breaking: false, where: path.join(' '), what: `documentation ${what}: ${key}` });
    } else if (key in a && key in b) {
      changes.push(...documentationChanges(a[key], b[key], path));
    }
  }
  return changes;
}

export function majorVersion(document: Json): number {
  return Number(String((document.info as Json | undefined)?.version ?? '0').split('.')[0]);
}
