// Retry-After as an HTTP date: only a date that starts with the day's three-letter name is taken,
// whatever else Date.parse would read.
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../client/index.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('an HTTP date in Retry-After', () => {
  it("is taken only when it starts with the day's three-letter name", () => {
    expect(retryAfterMs('Thu, 15 Jan 2026 12:00:30 GMT', NOW)).toBe(30_000);
    // Date.parse reads each of these as 12:00:30 GMT that day; none is an HTTP date.
    for (const notHttpDate of ['15 Jan 2026 12:00:30 GMT', 'Th, 15 Jan 2026 12:00:30 GMT', '2026 Jan 15 12:00:30']) {
      expect(Date.parse(notHttpDate.endsWith('GMT') ? notHttpDate : `${notHttpDate} GMT`)).toBe(NOW + 30_000);
      expect(retryAfterMs(notHttpDate, NOW)).toBeUndefined();
    }
  });

  it('is read as GMT, as every HTTP date is, whatever zone is written after it', () => {
    for (const zone of ['PST', '+0100', 'GMT+2']) {
      expect(retryAfterMs(`Thu, 15 Jan 2026 12:00:30 ${zone}`, NOW)).toBe(30_000);
    }
  });
});
