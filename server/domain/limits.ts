// The spending limit of a key against the usage of its reset window.
import type { components } from '../../generated/api.js';

type ApiKey = components['schemas']['ApiKey'];

export type UsageFigures = Pick<
  ApiKey,
  | 'usage'
  | 'usage_daily'
  | 'usage_weekly'
  | 'usage_monthly'
  | 'byok_usage'
  | 'byok_usage_daily'
  | 'byok_usage_weekly'
  | 'byok_usage_monthly'
>;

export function limitRemaining(
  key: Pick<ApiKey, 'limit' | 'limit_reset' | 'include_byok_in_limit'>,
  figures: UsageFigures,
): number | null {
  if (key.limit === null) return null;
  const [usage, byok] = {
    daily: [figures.usage_daily, figures.byok_usage_daily],
    weekly: [figures.usage_weekly, figures.byok_usage_weekly],
    monthly: [figures.usage_monthly, figures.byok_usage_monthly],
    all: [figures.usage, figures.byok_usage],
  }[key.limit_reset ?? 'all'] as [number, number];
  const counted = key.include_byok_in_limit ? usage + byok : usage;
  return Math.max(0, key.limit - counted);
}
