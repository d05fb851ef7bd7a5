// Compares two versions of an OpenAPI document and classes every change as breaking for
// existing clients or not. Schemas are compared after dereferencing, in the direction they flow:
// what a client sends (requests: tightening breaks) and what it receives (responses: removing,
// loosening a promise or adding null breaks).
import { dereference } from '@apidevtools/json-schema-ref-parser';

type Json = Record<string, unknown>;
type Schema = Json;

export interface Change {
  breaking: boolean;
  where: string;
  what: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function types(schema: Schema): Set<string> {
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (alternatives) return new Set(alternatives.flatMap((alternative) => [...types(alternative)]));
  if (Array.isArray(schema.type)) return new Set(schema.type as string[]);
  if (typeof schema.type === 'string') return new Set([schema.type]);
  return new Set();
}

/** The non-null branch of `oneOf: [X, {type: null}]`, or the schema itself. */
function core(schema: Schema): Schema {
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (!alternatives) return schema;
  const nonNull = alternatives.filter((a) => !(types(a).size === 1 && types(a).has('null')));
  return nonNull.length === 1 && nonNull[0] ? core(nonNull[0]) : schema;
}

/** The non-null alternatives of a `oneOf` or `anyOf`; none for any other schema. */
function alternatives(schema: Schema): Schema[] {
  const listed = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  return (listed ?? []).filter((a) => !(types(a).size === 1 && types(a).has('null')));
}

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];

function compareSchemas(
  before: Schema | undefined,
  after: Schema | undefined,
  where: string,
  direction: 'request' | 'response',
  changes: Change[],
): void {
  if (!before || !after) return;
  const [typesBefore, typesAfter] = [types(before), types(after)];
  const withoutNull = (set: Set<string>) =>
    [...set]
      .filter((t) => t !== 'null')
      .sort()
      .join('|');
  if (typesBefore.size > 0 && typesAfter.size > 0 && withoutNull(typesBefore) !== withoutNull(typesAfter)) {
    changes.push({
      breaking: true,
      where,
      what: `type changed from ${withoutNull(typesBefore)} to ${withoutNull(typesAfter)}`,
    });
  }
  if (direction === 'response' && !typesBefore.has('null') && typesAfter.has('null'))
    changes.push({ breaking: true, where, what: 'made nullable' });
  if (direction === 'request' && typesBefore.has('null') && !typesAfter.has('null'))
    changes.push({ breaking: true, where, what: 'null no longer accepted' });

  const [b, a] = [core(before), core(after)];
  const [alternativesBefore, alternativesAfter] = [alternatives(b), alternatives(a)];
  if (alternativesBefore.length > 1 || alternativesAfter.length > 1) {
    if (alternativesBefore.length === alternativesAfter.length) {
      for (const [index, alternative] of alternativesBefore.entries()) {
        compareSchemas(alternative, alternativesAfter[index], `${where}(alternative ${index + 1})`, direction, changes);
      }
    } else {
      changes.push({
        breaking: true,
        where,
        what: `alternatives (oneOf) changed from ${Math.max(1, alternativesBefore.length)} to ${Math.max(1, alternativesAfter.length)}`,
      });
    }
    return;
  }
  if (direction === 'request') {
    for (const key of LOWER_BOUNDS) {
      const [was, is] = [b[key] as number | undefined, a[key] as number | undefined];
      if (is !== undefined && (was === undefined || is > was))
        changes.push({ breaking: true, where, what: `${key} tightened from ${was ?? 'none'} to ${is}` });
      else if (was !== undefined && (is === undefined || is < was))
        changes.push({ breaking: false, where, what: `${key} loosened from ${was} to ${is ?? 'none'}` });
    }
    for (const key of UPPER_BOUNDS) {
      const [was, is] = [b[key] as number | undefined, a[key] as number | undefined];
      if (is !== undefined && (was === undefined || is < was))
        changes.push({ breaking: true, where, what: `${key} tightened from ${was ?? 'none'} to ${is}` });
      else if (was !== undefined && (is === undefined || is > was))
        changes.push({ breaking: false, where, what: `${key} loosened from ${was} to ${is ?? 'none'}` });
    }
    if (a.pattern !== undefined && a.pattern !== b.pattern)
      changes.push({
        breaking: true,
        where,
        what: `pattern ${b.pattern === undefined ? 'added' : 'changed'}: ${String(a.pattern)}`,
      });
    if (Array.isArray(b.enum) && Array.isArray(a.enum)) {
      for (const value of b.enum)
        if (!a.enum.includes(value))
          changes.push({ breaking: true, where, what: `enum value ${JSON.stringify(value)} removed` });
      for (const value of a.enum)
        if (!b.enum.includes(value))
          changes.push({ breaking: false, where, what: `enum value ${JSON.stringify(value)} added` });
    } else if (Array.isArray(a.enum) && !Array.isArray(b.enum))
      changes.push({ breaking: true, where, what: 'restricted to an enum' });
    if (b.additionalProperties !== false && a.additionalProperties === false)
      changes.push({ breaking: true, where, what: 'unknown properties now refused' });
  }

  const [propsBefore, propsAfter] = [
    (b.properties ?? {}) as Record<string, Schema>,
    (a.properties ?? {}) as Record<string, Schema>,
  ];
  const [requiredBefore, requiredAfter] = [
    new Set((b.required ?? []) as string[]),
    new Set((a.required ?? []) as string[]),
  ];
  for (const name of Object.keys(propsBefore)) {
    const path = `${where}.${name}`;
    if (!(name in propsAfter)) {
      changes.push({
        breaking: direction === 'response' || b.additionalProperties === false || a.additionalProperties === false,
        where: path,
        what: 'property removed',
      });
      continue;
    }
    if (direction === 'response' && requiredBefore.has(name) && !requiredAfter.has(name))
      changes.push({ breaking: true, where: path, what: 'made optional' });
    if (direction === 'request' && !requiredBefore.has(name) && requiredAfter.has(name))
      changes.push({ breaking: true, where: path, what: 'made required' });
    compareSchemas(propsBefore[name], propsAfter[name], path, direction, changes);
  }
  for (const name of Object.keys(propsAfter)) {
    if (name in propsBefore) continue;
    const required = requiredAfter.has(name);
    changes.push({
      breaking: direction === 'request' && required,
      where: `${where}.${name}`,
      what: `${required ? 'required ' : ''}property added`,
    });
  }
  if (b.items && a.items) compareSchemas(b.items as Schema, a.items as Schema, `${where}[]`, direction, changes);
}

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
    for (const method of METHODS.filter((m) => m in itemBefore)) {
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
    for (const method of METHODS.filter(
      (m) => m in itemAfter && !(pathsBefore[path] && m in (pathsBefore[path] as Json)),
    )) {
      changes.push({ breaking: false, where: `${method.toUpperCase()} ${path}`, what: 'operation added' });
    }
  }
  return changes;
}

export function majorVersion(document: Json): number {
  return Number(String((document.info as Json | undefined)?.version ?? '0').split('.')[0]);
}
