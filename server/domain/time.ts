// UTC calendar arithmetic for the usage windows. Days are 'YYYY-MM-DD' strings, which sort and
// compare the same way as the dates they name, in SQL as in JavaScript.

export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export interface UsageWindows {
  /** The current UTC day. */
  day: string;
  /** Monday of the current UTC week. */
  weekStart: string;
  /** First day of the current UTC month. */
  monthStart: string;
}

export function usageWindows(now: Date): UsageWindows {
  const daysSinceMonday = (now.getUTCDay() + 6) % 7;
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysSinceMonday));
  const firstOfMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { day: utcDay(now), weekStart: utcDay(monday), monthStart: utcDay(firstOfMonth) };
}
