// Deprecation, sunset dates and stability levels of operations and parameters, as oasdiff judges
// them with no deprecation policy configured (a minimum of 0 days): deprecating is info, a sunset
// that can't be read, that is already past when the item is deprecated, or that moves earlier into
// the past is an error, removing before the sunset is an error, removing after it is nothing to report.
import type { Findings } from './findings.js';

type Json = Record<string, unknown>;
type Add = (id: string, what: string) => void;

const STABILITY = ['draft', 'alpha', 'beta', 'stable'];

/** A calendar date at midnight UTC, or null where the day does not exist. */
function calendarDate(year: string, month: string, day: string): Date | null {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const exists = date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
  return exists ? date : null;
}

const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,]\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/**
 * The day a sunset names, as oasdiff reads it (getSunsetDate): a string holding a plain date
 * (YYYY-MM-DD) or an RFC 3339 date-time, whose day is the one written, whatever its offset.
 */
function sunsetDay(sunset: unknown): Date | null {
  if (typeof sunset !== 'string') return null;
  const plain = PLAIN_DATE.exec(sunset);
  if (plain) return calendarDate(plain[1] ?? '', plain[2] ?? '', plain[3] ?? '');
  const stamp = RFC3339.exec(sunset);
  if (!stamp) return null;
  // Hour, minute, second, then the offset's hour and minute, each below its bound.
  const bounds: [number, number][] = [
    [4, 24],
    [5, 60],
    [6, 60],
    [7, 24],
    [8, 60],
  ];
  const inRange = bounds.every(([at, bound]) => Number(stamp[at] ?? 0) < bound);
  return inRange ? calendarDate(stamp[1] ?? '', stamp[2] ?? '', stamp[3] ?? '') : null;
}

/** The sunset date of an operation or parameter, undefined without one, null where it can't be read. */
export function sunsetOf(item: Json): Date | null | undefined {
  const sunset = item['x-sunset'];
  if (sunset === undefined) return undefined;
  return sunsetDay(sunset);
}

/** Whether a sunset date is before today (UTC): fewer days left than the minimum of 0. */
export function sunsetPassed(sunset: Date): boolean {
  const now = new Date();
  return sunset.getTime() < Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
}

/** What deprecating an item says of its sunset: none, unreadable, already past, or a date to come. */
export function deprecationSunset(item: Json): 'none' | 'unreadable' | 'passed' | 'ahead' {
  const sunset = sunsetOf(item);
  if (sunset === undefined) return 'none';
  if (sunset === null) return 'unreadable';
  return sunsetPassed(sunset) ? 'passed' : 'ahead';
}

/**
 * The id of removing a deprecated item: before its sunset, its sunset unreadable, without a sunset;
 * none once its sunset is reached, as oasdiff reports nothing then.
 */
export function removalOfDeprecated(
  item: Json,
  ids: { withDeprecation: string; beforeSunset: string; sunsetParse: string },
): string | undefined {
  const sunset = sunsetOf(item);
  if (sunset === null) return ids.sunsetParse;
  if (sunset === undefined) return ids.withDeprecation;
  return sunset.getTime() > Date.now() ? ids.beforeSunset : undefined;
}

/** The rule ids of an item's deprecation and sunset changes: an operation's, or a parameter's. */
interface DeprecationRules {
  reactivated: string;
  deprecated: string;
  /** Deprecated with a sunset to come; without an id of its own, it is `deprecated`. */
  withSunset?: string;
  sunsetUnreadable: string;
  sunsetPassed: string;
  /** The ids of compareSunsets, for an item that stays deprecated. */
  sunsetChanged: [deleted: string, earlier: string, unreadable: string];
}

const OPERATION_DEPRECATION: DeprecationRules = {
  reactivated: 'endpoint-reactivated',
  deprecated: 'endpoint-deprecated',
  withSunset: 'endpoint-deprecated-with-sunset',
  sunsetUnreadable: 'api-deprecated-sunset-parse',
  sunsetPassed: 'api-sunset-date-too-small',
  sunsetChanged: ['sunset-deleted', 'api-sunset-date-changed-too-small', 'api-path-sunset-parse'],
};

const PARAMETER_DEPRECATION: DeprecationRules = {
  reactivated: 'request-parameter-reactivated',
  deprecated: 'request-parameter-deprecated',
  sunsetUnreadable: 'request-parameter-sunset-parse',
  sunsetPassed: 'request-parameter-sunset-date-too-small',
  sunsetChanged: [
    'request-parameter-sunset-deleted',
    'request-parameter-sunset-date-changed-too-small',
    'request-parameter-sunset-parse',
  ],
};

/** Deprecated or reactivated, with what the sunset says; or, still deprecated, its sunset changed. */
function compareDeprecation(before: Json, after: Json, rules: DeprecationRules, add: Add): void {
  if (Boolean(before.deprecated) !== Boolean(after.deprecated)) {
    const sunset = deprecationSunset(after);
    if (!after.deprecated) add(rules.reactivated, 'no longer deprecated');
    else if (sunset === 'unreadable') add(rules.sunsetUnreadable, `x-sunset ${String(after['x-sunset'])} unreadable`);
    else if (sunset === 'passed')
      add(rules.sunsetPassed, `deprecated, sunset ${String(after['x-sunset'])} already past`);
    else if (sunset === 'ahead' && rules.withSunset)
      add(rules.withSunset, `deprecated, sunset ${String(after['x-sunset'])}`);
    else add(rules.deprecated, 'deprecated');
  } else if (after.deprecated) compareSunsets(before, after, rules.sunsetChanged, add);
}

export function compareOperationLifecycle(before: Json, after: Json, operation: string, findings: Findings): void {
  compareDeprecation(before, after, OPERATION_DEPRECATION, (id, what) => findings.add(id, operation, operation, what));
}

/** Whether oasdiff's default stability threshold (beta) takes in an operation: no level, beta or stable. */
export function stabilityIncluded(operation: Json): boolean {
  const level = operation['x-stability-level'];
  return level !== 'draft' && level !== 'alpha';
}

/**
 * An operation's stability level changed, from one at or above the threshold; a level that is not
 * one of oasdiff's, in either version.
 */
export function compareOperationStability(before: Json, after: Json, operation: string, findings: Findings): void {
  const add = (id: string, what: string) => findings.add(id, operation, operation, what);
  const [was, is] = [before['x-stability-level'], after['x-stability-level']];
  if (was === is) return;
  const invalid = [was, is].filter((level) => level !== undefined && !STABILITY.includes(String(level)));
  for (const level of invalid) add('api-invalid-stability-level', `x-stability-level ${String(level)}`);
  if (invalid.length > 0 || !stabilityIncluded(before)) return;
  const [from, to] = [STABILITY.indexOf(String(was ?? 'stable')), STABILITY.indexOf(String(is ?? 'stable'))];
  if (to !== from)
    add(
      to < from ? 'api-stability-decreased' : 'api-stability-increased',
      `x-stability-level ${String(was ?? 'stable')} -> ${String(is ?? 'stable')}`,
    );
}

export function compareParameterLifecycle(
  before: Json,
  after: Json,
  operation: string,
  where: string,
  findings: Findings,
): void {
  compareDeprecation(before, after, PARAMETER_DEPRECATION, (id, what) => findings.add(id, operation, where, what));
}

/** A sunset dropped from what stays deprecated, changed to or from one that can't be read, or moved earlier into the past. */
function compareSunsets(
  before: Json,
  after: Json,
  [deleted, earlier, unreadable]: DeprecationRules['sunsetChanged'],
  add: Add,
): void {
  const [was, is] = [sunsetOf(before), sunsetOf(after)];
  if (was === undefined || before['x-sunset'] === after['x-sunset']) return;
  if (is === undefined) add(deleted, 'x-sunset removed');
  else if (is === null || was === null)
    add(unreadable, `x-sunset ${String(before['x-sunset'])} -> ${String(after['x-sunset'])}: unreadable`);
  // oasdiff APISunsetChangedCheck: earlier and fewer days left than the minimum, 0 with no policy.
  else if (is.getTime() < was.getTime() && sunsetPassed(is))
    add(earlier, `x-sunset ${String(before['x-sunset'])} -> ${String(after['x-sunset'])}`);
}
