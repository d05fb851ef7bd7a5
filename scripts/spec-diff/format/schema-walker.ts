// A schema walked through one document as written: $refs followed one by one, so that the
// component a path goes through is known, and the alternatives of a oneOf or anyOf as the engine
// sees them.
import { ContractError, followRefs, isObject, nodeAt, type OpenApiDocument } from '../../../server/spec.js';

type Json = Record<string, unknown>;

/** The node a `$ref` names in the document, one hop; undefined for none. */
function pointer(document: Json, ref: string): unknown {
  return ref.startsWith('#/') ? nodeAt(document as unknown as OpenApiDocument, ref) : undefined;
}

function followed(document: Json, node: unknown, onHop: (ref: string) => void): unknown {
  try {
    return followRefs(document as unknown as OpenApiDocument, node, '#', onHop).node;
  } catch (error) {
    if (error instanceof ContractError) return undefined;
    throw error;
  }
}

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

const isNullSchema = (schema: Json | undefined) =>
  schema?.type === 'null' || (Array.isArray(schema?.type) && schema.type.length === 1 && schema.type[0] === 'null');

/** A schema walked through one document, $refs followed, remembering the last component entered. */
export class Walker {
  component?: { name: string; from: number };
  node: Json | undefined;
  constructor(
    private readonly document: Json,
    node: unknown,
  ) {
    this.enter(node, 0);
  }

  enter(node: unknown, stepsDone: number): void {
    const target = followed(this.document, isObject(node) ? node : undefined, (ref) => {
      const name = SCHEMA_REF.exec(ref)?.[1];
      if (name) this.component = { name: decodeURIComponent(name), from: stepsDone };
    });
    this.node = isObject(target) ? target : undefined;
  }

  /** The non-null entries of the node's oneOf or anyOf, as written ($refs not followed). */
  entries(): unknown[] | undefined {
    const list = (this.node?.oneOf ?? this.node?.anyOf) as unknown;
    if (!Array.isArray(list)) return undefined;
    return list.filter((entry) => !isNullSchema(new Walker(this.document, entry).node));
  }

  alternatives(): Json[] {
    return (this.entries() ?? []).map((entry) => new Walker(this.document, entry).node ?? {});
  }

  /** The schema as JSON with its $refs written out, as the engine (which dereferences) sees it. */
  inline(node: unknown, seen: ReadonlySet<string> = new Set()): string {
    if (Array.isArray(node)) return `[${node.map((n) => this.inline(n, seen)).join(',')}]`;
    if (!isObject(node)) return JSON.stringify(node) ?? 'null';
    const ref = node.$ref;
    if (typeof ref === 'string' && Object.keys(node).length === 1)
      return seen.has(ref) ? '"cycle"' : this.inline(pointer(this.document, ref), new Set([...seen, ref]));
    return `{${Object.entries(node)
      .map(([key, value]) => `${JSON.stringify(key)}:${this.inline(value, seen)}`)
      .join(',')}}`;
  }

  /** As the engine does: `oneOf: [X, null]` is X. */
  core(stepsDone: number): void {
    const entries = this.entries();
    if (entries?.length !== 1) return;
    this.enter(entries[0], stepsDone);
    this.core(stepsDone);
  }
}
