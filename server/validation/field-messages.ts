// The fields a 400 names, each once: a field that breaks several rules is one entry, its message
// giving each reason, in the order the checks found them.
import type { FieldError } from '../domain/field-errors.js';

/** Ajv's words without its internals: its `items ## 1 and 0` are items 1 and 0. */
export function withoutAjvInternals(message: string): string {
  return message.replaceAll('## ', '');
}

/** One entry per field, in the order the fields were first named; each reason once, joined by "and". */
export function oneEntryPerField(errors: readonly FieldError[]): FieldError[] {
  const reasons = new Map<string, string[]>();
  for (const { path, message } of errors) {
    const reason = withoutAjvInternals(message);
    const known = reasons.get(path);
    if (!known) reasons.set(path, [reason]);
    else if (!known.includes(reason)) known.push(reason);
  }
  return [...reasons].map(([path, messages]) => ({ path, message: messages.join(' and ') }));
}
