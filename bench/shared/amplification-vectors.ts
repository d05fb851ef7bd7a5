// Amplification: request bodies at the byte limit made of the cheapest elements to send and the
// most expensive to check, at every array, object and string that an operation's request body
// schema allows, read from the spec. An array is filled with empty objects, wrong types, objects of
// unknown keys, and alternatives that all fail (every branch's tag, every other property mistyped);
// an array whose items hold arrays is also filled to both sizes at once; an object gets unknown
// keys with mistyped values; a string is as long as the limit. The plain body to compare with is the
// operation's first example, padded with spaces to the same size.
import {
  isObject,
  type JsonObject,
  type OpenApiDocument,
  resolveRef,
  type SpecOperation,
  specOperations,
} from '../../server/spec.js';

export interface AmplificationBody {
  /** What the body is made of, for the report: `filter_rules.groups[].rules[]: {}`. */
  shape: string;
  body: string;
}

export interface OperationBodies {
  entry: SpecOperation;
  /** The first example of the request body, padded with spaces to `limitBytes`. */
  plain: string;
  bodies: AmplificationBody[];
}

type Step = { property: string } | 'item';

interface Container {
  steps: Step[];
  schema: JsonObject;
}

function resolve(spec: OpenApiDocument, schema: unknown): JsonObject {
  const node = resolveRef(spec, schema);
  return isObject(node) ? node : {};
}

const describe = (steps: readonly Step[]) =>
  steps
    .map((step) => (step === 'item' ? '[]' : `.${step.property}`))
    .join('')
    .replace(/^\./, '') || '(body)';

/** Every array, object and string under `schema`, through its properties, items and alternatives. */
function containersOf(
  spec: OpenApiDocument,
  root: unknown,
): { arrays: Container[]; objects: Container[]; strings: Container[] } {
  const found = { arrays: [] as Container[], objects: [] as Container[], strings: [] as Container[] };
  const seen = new Set<string>();
  const walk = (raw: unknown, steps: Step[], depth: number) => {
    const schema = resolve(spec, raw);
    if (depth > 12) return;
    for (const branch of [schema.oneOf, schema.anyOf, schema.allOf].flatMap((list) =>
      Array.isArray(list) ? list : [],
    ))
      walk(branch, steps, depth + 1);
    const types = [schema.type].flat();
    const key = `${describe(steps)} ${types.join('|')}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (types.includes('array') || schema.items !== undefined) {
      found.arrays.push({ steps, schema });
      walk(schema.items, [...steps, 'item'], depth + 1);
    }
    if (types.includes('object') || isObject(schema.properties)) {
      found.objects.push({ steps, schema });
      for (const [name, child] of Object.entries(isObject(schema.properties) ? schema.properties : {}))
        walk(child, [...steps, { property: name }], depth + 1);
      if (isObject(schema.additionalProperties))
        walk(schema.additionalProperties, [...steps, { property: 'extra' }], depth + 1);
    }
    if (types.includes('string')) found.strings.push({ steps, schema });
  };
  walk(root, [], 0);
  return found;
}

/** `value` at the end of `steps`, in the objects and arrays that lead there. */
function placed(steps: readonly Step[], value: unknown): unknown {
  return steps.reduceRight<unknown>((inner, step) => (step === 'item' ? [inner] : { [step.property]: inner }), value);
}

/** A value of a JSON type the schema does not take. */
function mistyped(schema: JsonObject): unknown {
  const types = [schema.type].flat();
  return types.includes('string') ? 0 : 'x';
}

/** One element for every alternative of `items`: its tag set, every other property mistyped. */
function failingAlternatives(spec: OpenApiDocument, items: JsonObject): unknown[] {
  const branches = (Array.isArray(items.oneOf) ? items.oneOf : []).map((branch) => resolve(spec, branch));
  return branches.map((branch) => {
    const properties = Object.entries(isObject(branch.properties) ? branch.properties : {}).map(
      ([name, raw]) => [name, resolve(spec, raw)] as const,
    );
    return Object.fromEntries(
      properties.map(([name, schema]) =>
        Array.isArray(schema.enum) ? [name, schema.enum[0]] : [name, mistyped(schema)],
      ),
    );
  });
}

/** As many elements as fit in `limitBytes` once placed at `steps`, and no fewer than `atLeast`. */
function filled(steps: readonly Step[], element: unknown, limitBytes: number): string {
  const frame = JSON.stringify(placed(steps, [])).length;
  const size = JSON.stringify(element).length + 1;
  const count = Math.max(1, Math.floor((limitBytes - frame - 16) / size));
  return JSON.stringify(
    placed(
      steps,
      Array.from({ length: count }, () => element),
    ),
  );
}

function unknownKeys(steps: readonly Step[], limitBytes: number): string {
  const frame = JSON.stringify(placed(steps, {})).length;
  const entries: [string, number][] = [];
  let size = frame + 16;
  for (let i = 0; ; i++) {
    const entry = `"k${i}":0,`.length;
    if (size + entry > limitBytes) break;
    size += entry;
    entries.push([`k${i}`, 0]);
  }
  return JSON.stringify(placed(steps, Object.fromEntries(entries)));
}

function bodiesOf(spec: OpenApiDocument, schema: unknown, limitBytes: number): AmplificationBody[] {
  const { arrays, objects, strings } = containersOf(spec, schema);
  const bodies: AmplificationBody[] = [];
  for (const { steps, schema: array } of arrays) {
    const items = resolve(spec, array.items);
    const elements: [string, unknown][] = [
      ['{}', {}],
      ['0', 0],
      ['""', ''],
      ['[]', []],
      ['{unknown: 0}', { unknown: 0 }],
      ...failingAlternatives(spec, items).map((element): [string, unknown] => [JSON.stringify(element), element]),
    ];
    for (const [name, element] of elements)
      bodies.push({ shape: `${describe([...steps, 'item'])}: ${name}`, body: filled(steps, element, limitBytes) });
    // Arrays in the items of this one: both filled to their sizes, with failing elements.
    for (const inner of arrays.filter((other) => other.steps.length > steps.length + 1)) {
      const prefix = inner.steps.slice(0, steps.length + 1);
      if (describe(prefix) !== describe([...steps, 'item'])) continue;
      const innerCount = Number(inner.schema.maxItems ?? 50);
      const outerCount = Number(array.maxItems ?? 50);
      const item = placed(
        inner.steps.slice(steps.length + 1),
        Array.from({ length: innerCount }, () => ({})),
      );
      const body = JSON.stringify(
        placed(
          steps,
          Array.from({ length: outerCount }, () => item),
        ),
      );
      if (body.length <= limitBytes)
        bodies.push({ shape: `${describe(inner.steps)}: ${outerCount} × ${innerCount} × {}`, body });
    }
  }
  for (const { steps } of objects)
    bodies.push({ shape: `${describe(steps)}: unknown keys`, body: unknownKeys(steps, limitBytes) });
  for (const { steps } of strings) {
    const frame = JSON.stringify(placed(steps, '')).length;
    bodies.push({
      shape: `${describe(steps)}: longest string`,
      body: JSON.stringify(placed(steps, 'a'.repeat(limitBytes - frame - 16))),
    });
  }
  return bodies;
}

/** The amplification bodies of every operation that takes a JSON request body. */
export function amplificationBodies(spec: OpenApiDocument, limitBytes: number): OperationBodies[] {
  return specOperations(spec).flatMap((entry) => {
    const content = entry.operation.requestBody?.content['application/json'] as
      | { schema: unknown; examples?: Record<string, { value: unknown }> }
      | undefined;
    if (!content) return [];
    const example = JSON.stringify(Object.values(content.examples ?? {})[0]?.value ?? {});
    return [
      {
        entry,
        plain: example.padEnd(limitBytes - 16, ' '),
        bodies: bodiesOf(spec, content.schema, limitBytes),
      },
    ];
  });
}
