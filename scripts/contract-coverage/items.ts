// What a suite can exercise of the contract, named the same way by the test servers that record
// it (test/support/runner/contract-recorder.ts) and by the report that compares (index.ts):
// each documented response as `response <status> <media type>`, each oneOf alternative of a request
// body as `body <pointer>`, each enum value of a parameter as `<in> <name>=<value>`.
import { join } from 'node:path';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { projectRoot } from '../../server/project-root.js';
import {
  escapePointer,
  followRefs,
  isObject,
  nodeAt,
  type OpenApiDocument,
  requestBodySchemaPointer,
  resolveRef,
  type SpecOperation,
  specOperations,
  validatorAt,
} from '../../server/spec.js';

/** Where the records go; CONTRACT_COVERAGE_DIR moves it (the report's own tests do). */
export const COVERAGE_DIR = process.env.CONTRACT_COVERAGE_DIR ?? join(projectRoot, 'test-output', 'contract-coverage');

/** One thing the spec documents that a test can exercise; `key` names it in reports. */
export interface Exercised {
  operationId: string;
  /** `response 200 application/json`, `body #/components/schemas/FilterRule/oneOf/2`, `query limit=5`. */
  key: string;
  test: string;
}

/** The request body schemas of an operation, by media type, as pointers into the spec. */
export function bodySchemaPointers(entry: SpecOperation): string[] {
  return Object.keys(entry.operation.requestBody?.content ?? {}).map((mediaType) =>
    requestBodySchemaPointer(entry, mediaType),
  );
}

/**
 * Every oneOf alternative below a schema, as `<pointer>/oneOf/<i>`; with a value, only those the
 * value takes (the alternatives it validates against, and what lies below them).
 */
export function oneOfAlternatives(spec: OpenApiDocument, pointer: string, ajv?: Ajv2020, value?: unknown): string[] {
  const found = new Set<string>();
  const seen = new Set<string>();
  const withValue = ajv !== undefined;
  const validates = (at: string, v: unknown) => ajv !== undefined && validatorAt(ajv, at)(v) === true;
  const walk = (from: string, v: unknown): void => {
    // Alternatives are named where they are written: below the component a `$ref` names.
    const { node, pointer: at } = followRefs(spec, nodeAt(spec, from), from);
    if (!withValue) {
      if (seen.has(at)) return;
      seen.add(at);
    }
    if (!isObject(node)) return;
    for (const keyword of ['oneOf', 'anyOf', 'allOf'] as const) {
      const branches = node[keyword];
      if (!Array.isArray(branches)) continue;
      for (let i = 0; i < branches.length; i++) {
        const branch = `${at}/${keyword}/${i}`;
        if (keyword === 'oneOf') {
          if (withValue && !validates(branch, v)) continue;
          found.add(branch);
        }
        walk(branch, v);
      }
    }
    const properties = isObject(node.properties) ? node.properties : {};
    const additional = isObject(node.additionalProperties) ? `${at}/additionalProperties` : undefined;
    if (!withValue) {
      for (const name of Object.keys(properties)) walk(`${at}/properties/${escapePointer(name)}`, undefined);
      if (additional) walk(additional, undefined);
      if (isObject(node.items)) walk(`${at}/items`, undefined);
      return;
    }
    if (isObject(v)) {
      for (const [name, inner] of Object.entries(v)) {
        if (Object.hasOwn(properties, name)) walk(`${at}/properties/${escapePointer(name)}`, inner);
        else if (additional) walk(additional, inner);
      }
    }
    if (Array.isArray(v) && isObject(node.items)) for (const item of v) walk(`${at}/items`, item);
  };
  walk(pointer, value);
  return [...found];
}

/** The enum values an operation's parameters take, as `<in> <name>=<value>`. */
export function enumParameterValues(entry: SpecOperation): string[] {
  return entry.parameters.flatMap((parameter) => {
    const values = (parameter.schema as { enum?: unknown[] }).enum ?? [];
    return values.map((value) => `${parameter.in} ${parameter.name}=${String(value)}`);
  });
}

/** What the spec documents of each operation, by operationId. */
export function documentedItems(spec: OpenApiDocument): Map<string, string[]> {
  return new Map(
    specOperations(spec).map((entry) => {
      const responses = Object.entries(entry.operation.responses).flatMap(([status, response]) => {
        const resolved = resolveRef(spec, response) as { content?: object };
        const mediaTypes = Object.keys(resolved.content ?? {});
        return mediaTypes.length === 0
          ? [`response ${status}`]
          : mediaTypes.map((type) => `response ${status} ${type}`);
      });
      const bodies = bodySchemaPointers(entry).flatMap((pointer) =>
        oneOfAlternatives(spec, pointer).map((alternative) => `body ${alternative}`),
      );
      return [entry.operation.operationId, [...responses, ...bodies, ...enumParameterValues(entry)]];
    }),
  );
}
