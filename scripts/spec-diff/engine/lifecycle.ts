// Deprecation, sunset dates and stability levels of operations and parameters, as oasdiff judges
// them with no deprecation policy configured: deprecating is info, a sunset that can't be read or
// that moves earlier is an error, removing before the sunset is an error.
import type { Findings } from './findings.js';

type Json = Record<string, unknown>;

const STABILITY = ['draft', 'alpha', 'beta', 'stable'];

/** The sunset date of an operation or parameter, undefined without one, null where it can't be read. */
export function sunsetOf(item: Json): Date | null | undefined {
  const sunset = item['x-sunset'];
  if (sunset === undefined) return undefined;
  const date = new Date(String(sunset));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The id of removing a deprecated item: before its sunset, its sunset unreadable, or in order. */
export function removalOfDeprecated(
  item: Json,
  ids: { withDeprecation: string; beforeSunset: string; sunsetParse: string },
): string {
  const sunset = sunsetOf(item);
  if (sunset === null) return ids.sunsetParse;
  if (sunset && sunset.getTime() > Date.now()) return ids.beforeSunset;
  return ids.withDeprecation;
}

export function compareOperationLifecycle(before: Json, after: Json, operation: string, findings: Findings): void {
  const add = (id: string, what: string) => findings.add(id, operation, operation, what);
  if (Boolean(before.deprecated) !== Boolean(after.deprecated)) {
    if (!after.deprecated) add('endpoint-reactivated', 'no longer deprecated');
    else if (sunsetOf(after) === null)
      add('api-deprecated-sunset-parse', `x-sunset ${String(after['x-sunset'])} unreadable`);
    else if (sunsetOf(after)) add('endpoint-deprecated-with-sunset', `deprecated, sunset ${String(after['x-sunset'])}`);
    else add('endpoint-deprecated', 'deprecated');
  } else if (after.deprecated)
    compareSunsets(before, after, ['sunset-deleted', 'api-sunset-date-changed-too-small'], add);
  const [was, is] = [before['x-stability-level'], after['x-stability-level']];
  if (was === is) return;
  if (is !== undefined && !STABILITY.includes(String(is))) {
    add('api-invalid-stability-level', `x-stability-level ${String(is)}`);
    return;
  }
  const [from, to] = [STABILITY.indexOf(String(was ?? 'stable')), STABILITY.indexOf(String(is ?? 'stable'))];
  if (from >= 0 && to !== from)
    add(
      to < from ? 'api-stability-decreased' : 'api-stability-increased',
      `x-stability-level ${String(was)} -> ${String(is)}`,
    );
}

export function compareParameterLifecycle(
  before: Json,
  after: Json,
  operation: string,
  where: string,
  findings: Findings,
): void {
  const add = (id: string, what: string) => findings.add(id, operation, where, what);
  if (Boolean(before.deprecated) !== Boolean(after.deprecated))
    add(
      after.deprecated ? 'request-parameter-deprecated' : 'request-parameter-reactivated',
      after.deprecated ? 'deprecated' : 'no longer deprecated',
    );
  else if (after.deprecated)
    compareSunsets(
      before,
      after,
      ['request-parameter-sunset-deleted', 'request-parameter-sunset-date-changed-too-small'],
      add,
    );
}

/** A sunset dropped from what stays deprecated, or moved earlier. */
function compareSunsets(
  before: Json,
  after: Json,
  [deleted, earlier]: [string, string],
  add: (id: string, what: string) => void,
): void {
  const [was, is] = [sunsetOf(before), sunsetOf(after)];
  if (was !== undefined && is === undefined) add(deleted, 'x-sunset removed');
  else if (was && is && is.getTime() < was.getTime())
    add(earlier, `x-sunset ${String(before['x-sunset'])} -> ${String(after['x-sunset'])}`);
}
