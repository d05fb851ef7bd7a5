/**
 * A parameter that the spec gives a default: the validator fills it in before any handler runs,
 * so its absence here is a bug of the server, not of the request.
 */
export function filledByValidator<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`parameter ${name} has no value: its default from the spec was not applied`);
  return value;
}
