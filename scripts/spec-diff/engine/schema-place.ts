// Where a schema is compared (the side, what its top describes, how deep, through read- or
// write-only properties), and the rule id a kind of change takes there: oasdiff's where it has one
// for the subject, the project's where oasdiff has none, or none at all.
import type { Findings } from './findings.js';
import { OASDIFF_RULES } from './oasdiff-rules.js';
import { schemaRuleId } from './rules.js';
import type { Schema } from './schema-types.js';

export interface SchemaPlace {
  side: 'request' | 'response';
  /** What the schema at the top describes: a parameter's value or a body. */
  top: 'parameter' | 'body';
  /** Where a parameter is sent: the properties of a header's object have rules of their own. */
  in?: string;
  operation: string;
  /** The body's media type: JSON is strongly typed, a parameter's text is not. */
  mediaType?: string;
}

/** Where inside the top schema: its depth, and whether a property on the way is read- or write-only. */
export interface Depth {
  level: number;
  readOnly?: boolean;
  writeOnly?: boolean;
}

// The kinds oasdiff's checks report on a read-only property of a request, or a write-only one of a
// response, as on any other: a client that sends a read-only property back (a resource echoed in an
// update) is held to them by a validator, and a server may answer with a write-only one. Its other
// checks (enum values, bounds, requiredness, added and removed properties, and a request's types)
// pass those properties by.
const PRESENCE_KINDS =
  '(all|any|one)-of-|(min-|max-)?contains-|content-|dependent-|if-|then-|else-|pattern-|prefix-items-|property-names-|unevaluated-';
const READ_ONLY_CHECKED = new RegExp(
  `^(${PRESENCE_KINDS}|min-length-|default-value-|const-|became-enum$|became-(not-)?nullable$)`,
);
const WRITE_ONLY_CHECKED = new RegExp(
  `^(${PRESENCE_KINDS}|default-value-|const-|enum-value-removed$|became-(not-)?nullable$|type-|list-of-types-)`,
);

export type Report = (kind: string, what: string, where?: string) => void;

export function subjectOf(place: SchemaPlace, depth: number): string {
  if (place.side === 'request' && place.top === 'parameter')
    return depth === 0 ? 'request-parameter' : 'request-parameter-property';
  if (place.side === 'request') return depth === 0 ? 'request-body' : 'request-property';
  return depth === 0 ? 'response-body' : 'response-property';
}

/** The id a kind of change takes at this place, or undefined where neither oasdiff nor the project has one. */
function ruleIdAt(place: SchemaPlace, depth: Depth, kind: string): string | undefined {
  if (place.side === 'request' && depth.readOnly) {
    const id = `request-read-only-property-${kind}`;
    if (OASDIFF_RULES[id]) return id;
    if (!READ_ONLY_CHECKED.test(kind)) return undefined;
  }
  if (place.side === 'response' && depth.writeOnly) {
    const id = `response-write-only-property-${kind}`;
    if (OASDIFF_RULES[id]) return id;
    if (!WRITE_ONLY_CHECKED.test(kind)) return undefined;
  }
  const subject = subjectOf(place, depth.level);
  if (place.in === 'header' && depth.level > 0 && kind === 'became-enum') return 'request-header-property-became-enum';
  if (subject === 'response-body' && kind === 'enum-value-removed') return 'response-mediatype-enum-value-removed';
  return schemaRuleId(subject, kind);
}

/**
 * Where a comparison of two schemas stands: the place of the top schema, the location its findings
 * are reported at, how deep it is, the findings it adds to, and how it compares the sub-schemas below.
 */
export interface SchemaComparison {
  readonly place: SchemaPlace;
  readonly where: string;
  readonly depth: Depth;
  readonly findings: Findings;
  /** Compares two sub-schemas: how the keyword and property comparisons recurse. */
  readonly compare: Recurse;
}

export type Recurse = (before: Schema | undefined, after: Schema | undefined, at: SchemaComparison) => void;

/**
 * The comparison of a sub-schema reported at `where`: one level deeper, with the read- and write-only
 * marks of the way there, unless `depth` says otherwise.
 */
export function inside(
  at: SchemaComparison,
  where: string,
  depth: Depth = { ...at.depth, level: at.depth.level + 1 },
): SchemaComparison {
  return { ...at, where, depth };
}

/** Reports a kind of change where a comparison stands, under the rule id it takes there, if any. */
export function reporterAt({ place, depth, where, findings }: SchemaComparison): Report {
  return (kind, what, location = where) => {
    const id = ruleIdAt(place, depth, kind);
    if (id) findings.add(id, place.operation, location, what);
  };
}
