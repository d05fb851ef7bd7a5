// The usage windows of a moment (server/domain/time.ts): its UTC day, week from Monday and month.
import { describe, expect, it } from 'vitest';
import { usageWindows } from '../../server/domain/time.js';

describe('usage windows', () => {
  it.each([
    ['a Wednesday', '2026-11-18T12:00:00Z', { day: '2026-11-18', weekStart: '2026-11-16', monthStart: '2026-11-01' }],
    [
      'a Monday at midnight',
      '2026-11-16T00:00:00Z',
      { day: '2026-11-16', weekStart: '2026-11-16', monthStart: '2026-11-01' },
    ],
    [
      'a Sunday just before midnight',
      '2026-11-22T23:59:59.999Z',
      { day: '2026-11-22', weekStart: '2026-11-16', monthStart: '2026-11-01' },
    ],
    [
      'a week that began last year',
      '2027-01-01T08:00:00Z',
      { day: '2027-01-01', weekStart: '2026-12-28', monthStart: '2027-01-01' },
    ],
    ['a leap day', '2028-02-29T10:00:00Z', { day: '2028-02-29', weekStart: '2028-02-28', monthStart: '2028-02-01' }],
  ])('on %s', (_name, now, expected) => {
    expect(usageWindows(new Date(now))).toEqual(expected);
  });
});
