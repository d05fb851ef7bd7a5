// What a schema says about the type of a value, and how oasdiff classes a change of type or format:
// a request may accept more (generalized) but not less; a response may return less (specialized)
// but not more. A value that travels as text (a parameter, a header) can always be read as a string.
export type Schema = Record<string, unknown>;

const isNullSchema = (schema: Schema) =>
  schema.type === 'null' || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === 'null');

/** A oneOf/anyOf alternative that only names a type: `oneOf: [{type: string}, {type: integer}]`. */
const SIMPLE_KEYS = new Set(['type', 'format', 'title', 'description']);
const isSimple = (schema: Schema) =>
  typeof schema.type === 'string' && Object.keys(schema).every((key) => SIMPLE_KEYS.has(key));

export function alternativesOf(schema: Schema): Schema[] {
  return ((schema.oneOf ?? schema.anyOf) as Schema[] | undefined) ?? [];
}

/** Whether null is a value of the schema: a type array, `nullable: true`, or a null alternative. */
export function isNullable(schema: Schema): boolean {
  if (Array.isArray(schema.type)) return schema.type.includes('null');
  if (schema.type === 'null' || schema.nullable === true) return true;
  return alternativesOf(schema).some(isNullSchema);
}

/** The non-null types of a schema, sorted; a oneOf/anyOf of simple types counts as a list of types. */
export function typesOf(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return (schema.type as string[]).filter((t) => t !== 'null').sort();
  if (typeof schema.type === 'string') return schema.type === 'null' ? [] : [schema.type];
  const nonNull = alternativesOf(schema).filter((a) => !isNullSchema(a));
  if (nonNull.length === 1 && nonNull[0]) return typesOf(nonNull[0]);
  if (nonNull.length > 1 && nonNull.every(isSimple)) return [...new Set(nonNull.flatMap((a) => typesOf(a)))].sort();
  return [];
}

/** Whether the schema's alternatives are only types (a list of types, not shapes). */
export function isTypeList(schema: Schema): boolean {
  const nonNull = alternativesOf(schema).filter((a) => !isNullSchema(a));
  return nonNull.length > 1 && nonNull.every(isSimple);
}

/** The non-null branch of `oneOf: [X, {type: null}]`, or the schema itself. */
export function core(schema: Schema): Schema {
  const alternatives = alternativesOf(schema);
  if (alternatives.length === 0) return schema;
  const nonNull = alternatives.filter((a) => !isNullSchema(a));
  return nonNull.length === 1 && nonNull[0] && alternatives.length > 1 ? core(nonNull[0]) : schema;
}

const subtype = (sub: string, sup: string) => sub === sup || (sub === 'integer' && sup === 'number');
const covered = (sub: string[], sup: string[]) => sub.length > 0 && sub.every((t) => sup.some((s) => subtype(t, s)));

/** oasdiff's test on the types a change gains (`to`) and loses (`from`), whole schemas' types aside. */
function gainedContained(to: string[], from: string[], strong: boolean): boolean {
  if (to.length === 1 && from.length === 1 && subtype(from[0] ?? '', to[0] ?? '')) return true;
  return !strong && (to.length === 0 || (to.length === 1 && to[0] === 'string'));
}

const WIDER_FORMATS: Record<string, Record<string, string[]>> = {
  number: { double: ['float'] },
  integer: { int64: ['int32'], bigint: ['int32', 'int64'] },
  string: { 'date-time': ['date', 'time'] },
};

function formatContained(types: string[], to: unknown, from: unknown): boolean {
  if (to === undefined || to === '') return true;
  if (types.length !== 1) return false;
  return WIDER_FORMATS[types[0] ?? '']?.[String(to)]?.includes(String(from)) ?? false;
}

/**
 * Whether a request type or format change breaks on the types gained and lost alone, as oasdiff
 * judges a parameter and a parameter's property (typeOrFormatBreaking): a type gained beside the
 * old ones is not let off as a widening there.
 */
export function typeOrFormatBreaks(before: Schema, after: Schema, strong: boolean): boolean {
  const [was, is] = [typesOf(before), typesOf(after)];
  const [gained, lost] = [is.filter((t) => !was.includes(t)), was.filter((t) => !is.includes(t))];
  const [formatWas, formatIs] = [core(before).format, core(after).format];
  const typeBreaking = (gained.length > 0 || lost.length > 0) && !gainedContained(gained, lost, strong);
  return typeBreaking || (formatWas !== formatIs && !formatContained(is, formatIs, formatWas));
}

/**
 * The kind of a type or format change (`type-changed`, `type-generalized`, `type-specialized`,
 * `type-compatible`, `list-of-types-widened`, `list-of-types-narrowed`), or undefined for none.
 * `strong`: the value is JSON, where 1 and "1" differ.
 */
export function typeChangeKind(
  before: Schema,
  after: Schema,
  side: 'request' | 'response',
  strong: boolean,
): string | undefined {
  const [was, is] = [typesOf(before), typesOf(after)];
  // A schema that became (or stopped being) a composition of shapes has no type of its own to
  // compare: what changed is named by the composition's rules.
  const composed = (schema: Schema) => ['allOf', 'anyOf', 'oneOf'].some((keyword) => keyword in schema);
  if ((was.length === 0 && composed(before)) || (is.length === 0 && composed(after))) return undefined;
  const typeChanged = was.join() !== is.join();
  const [formatWas, formatIs] = [core(before).format, core(after).format];
  const formatChanged = formatWas !== formatIs;
  if (!typeChanged && !formatChanged) return undefined;
  // A list of types is oasdiff's name for a oneOf/anyOf of bare types only; a type array
  // (`type: [string, number]`) is a type like any other, its change judged by the types it gains
  // and loses.
  if (typeChanged && (isTypeList(before) || isTypeList(after))) {
    if (covered(was, is)) return 'list-of-types-widened';
    if (covered(is, was)) return 'list-of-types-narrowed';
    return 'type-changed';
  }
  const concrete = was.length > 0 && is.length > 0;
  const [gained, lost] = [is.filter((t) => !was.includes(t)), was.filter((t) => !is.includes(t))];
  if (side === 'request') {
    // Types only gained (each old one still accepted) refuse nothing.
    const typeBreaking = typeChanged && !covered(was, is) && is.length > 0 && !gainedContained(gained, lost, strong);
    const breaking = typeBreaking || (formatChanged && !formatContained(is, formatIs, formatWas));
    if (breaking) return 'type-changed';
    return typeChanged && concrete && !covered(was, is) ? 'type-compatible' : 'type-generalized';
  }
  // Types only lost (each new one an old one) return nothing unexpected.
  const typeBreaking = typeChanged && !covered(is, was) && was.length > 0 && !gainedContained(lost, gained, strong);
  const breaking = typeBreaking || (formatChanged && !formatContained(was, formatWas, formatIs));
  if (breaking) return typeChanged && covered(was, is) ? 'type-generalized' : 'type-changed';
  return typeChanged && concrete && !covered(is, was) ? 'type-compatible' : 'type-specialized';
}
