// Which field of a request an error's path names, as the API writes them in `metadata.errors`:
// `/path/<name>`, `/query/<name>`, `/headers/<name in lower case>`, `/body` and below it.
export type Field = { in: 'path' | 'query' | 'header'; name: string } | { in: 'body' };

const PARAMETER_PREFIXES = { path: 'path', query: 'query', headers: 'header' } as const;

export function fieldOf(errorPath: string): Field | undefined {
  if (errorPath === '/body' || errorPath.startsWith('/body/')) return { in: 'body' };
  const [, prefix = '', name, ...rest] = errorPath.split('/');
  if (!Object.hasOwn(PARAMETER_PREFIXES, prefix) || !name || rest.length > 0) return undefined;
  return { in: PARAMETER_PREFIXES[prefix as keyof typeof PARAMETER_PREFIXES], name };
}

/** Whether the error names the parameter (header names compared in any case, as HTTP does). */
export function namesParameter(errorPath: string, parameter: { in: string; name: string }): boolean {
  const field = fieldOf(errorPath);
  if (!field || field.in === 'body' || field.in !== parameter.in) return false;
  return field.in === 'header'
    ? field.name.toLowerCase() === parameter.name.toLowerCase()
    : field.name === parameter.name;
}
